import { describe, expect, it } from 'vitest';
import { neutralise, neutraliseSql } from './csv-injection.ts';

describe('neutralise', () => {
  it('neutralises cells that a spreadsheet would run as formulas', () => {
    expect(neutralise('=HYPERLINK("http://x")')).toBe('\'=HYPERLINK("http://x")');
    expect(neutralise('+1+cmd|calc')).toBe("'+1+cmd|calc");
    expect(neutralise('-2+3')).toBe("'-2+3");
    expect(neutralise('\nx')).toBe("'\nx");
    expect(neutralise('\r=1')).toBe("'\r=1");
    expect(neutralise('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(neutralise('\tx')).toBe("'\tx");
    expect(neutralise('Smith, J')).toBe('Smith, J');
    // Plain numbers stay numbers.
    for (const n of ['-2', '+1', '-0.5', '+3.25e-7', '-.5']) expect(neutralise(n)).toBe(n);
  });

  it('is written for the engine as the same rule', () => {
    expect(neutraliseSql('c')).toBe(
      "if(ascii(c) IN (61, 43, 45, 64, 9, 13, 10) AND NOT match(c, '^[+-]?([0-9]+\\\\.?[0-9]*|\\\\.[0-9]+)([eE][+-]?[0-9]+)?$'), concat('\\'', c), c)",
    );
  });
});
