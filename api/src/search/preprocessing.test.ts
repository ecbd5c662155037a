import { describe, expect, it } from 'vitest';
import { applyRules, splitPairs, type SplitRule } from './preprocessing.ts';

const rule = (over: Partial<SplitRule> = {}): SplitRule => ({
  name: 'Rule 1',
  enabled: true,
  sourceColumn: 'Authors',
  targetColumn: 'Emails',
  delimiter: ';',
  ruleType: 'split',
  ...over,
});

describe('split rules', () => {
  it('pairs pieces by position, trimmed, keeping the other columns', () => {
    const row = { Authors: 'Kim, J;  Okafor, N ; Silva, P', Emails: 'j@kim.org; n@okafor.org', Title: 'T' };
    expect(applyRules([rule()], row)).toEqual([
      { Authors: 'Kim, J', Emails: 'j@kim.org', Title: 'T' },
      { Authors: 'Okafor, N', Emails: 'n@okafor.org', Title: 'T' },
      { Authors: 'Silva, P', Emails: '', Title: 'T' },
    ]);
  });

  it('keeps a row without pieces as one row, drops pairs empty on both sides', () => {
    expect(applyRules([rule()], { Authors: '', Emails: '' })).toEqual([{ Authors: '', Emails: '' }]);
    expect(splitPairs(rule(), { Authors: 'A;;B', Emails: ';;b' })).toEqual([
      { source: 'A', target: '' },
      { source: 'B', target: 'b' },
    ]);
  });

  it('skips disabled rules and applies the others in order with their own delimiters', () => {
    const row = { Authors: 'A|B', Emails: 'a|b', Tags: 'x,y' };
    const rules = [
      rule({ delimiter: '|' }),
      rule({ name: 'off', enabled: false, sourceColumn: 'Tags', targetColumn: 'Tags' }),
      rule({ name: 'tags', sourceColumn: 'Tags', targetColumn: 'Other', delimiter: ',' }),
    ];
    expect(applyRules(rules, row).map((r) => `${r.Authors}/${r.Emails}/${r.Tags}`)).toEqual([
      'A/a/x',
      'A/a/y',
      'B/b/x',
      'B/b/y',
    ]);
  });
});
