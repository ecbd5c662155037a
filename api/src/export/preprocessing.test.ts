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

  it('pairs by name on request: a shorter email list goes to the authors it names', () => {
    // Web of Science gives emails only for some authors: by position the first email would go to
    // the first author, who has none.
    const row = {
      Authors: 'Kim, J; Okafor, N; Silva, P',
      Emails: 'nokafor@uni.ng; p.silva@usp.br; press@journal.org',
    };
    expect(splitPairs(rule(), row)[0]).toEqual({ source: 'Kim, J', target: 'nokafor@uni.ng' });
    expect(splitPairs(rule({ pairing: 'name' }), row)).toEqual([
      { source: 'Kim, J', target: '' },
      { source: 'Okafor, N', target: 'nokafor@uni.ng' },
      { source: 'Silva, P', target: 'p.silva@usp.br' },
      { source: '', target: 'press@journal.org' },
    ]);
    // Equal lists that no name contradicts still pair by position.
    expect(
      splitPairs(rule({ pairing: 'name' }), { Authors: 'A, B; C, D', Emails: 'x@a.org; y@b.org' }),
    ).toEqual([
      { source: 'A, B', target: 'x@a.org' },
      { source: 'C, D', target: 'y@b.org' },
    ]);
  });
});
