import { describe, expect, it } from 'vitest';
import { shownText } from './number-format.ts';

describe('shownText', () => {
  it('shows a number in a locale-tagged format as Excel does: no symbol for a tag without one', () => {
    // Statistics Poland's workbooks: `[$-415]#,##0.0` is 7.1 in Excel, not $7.1.
    expect(shownText(7.1, '[$-415]#,##0.0')).toBe('7.1');
    expect(shownText(1234.5, '[$-409]#,##0.00')).toBe('1,234.50');
    expect(shownText(0.071, '[$-415]0.0%')).toBe('7.1%');
    // A tag with its own symbol keeps it.
    expect(shownText(7.1, '[$€-407]#,##0.00')).toBe('€7.10');
    expect(shownText(7.1, '"[$-415]"0.0')).toBe('[$-415]7.1');
  });

  it('keeps what formats are for: leading zeros, percentages, General as it is', () => {
    expect(shownText(42, '000000')).toBe('000042');
    expect(shownText(0.25, '0%')).toBe('25%');
    expect(shownText(7.1, 'General')).toBe('7.1');
    expect(shownText('text', '0.0')).toBe('text');
  });
});
