import { describe, expect, it } from 'vitest';
import { newRule, rulesProblem, toRequestRules } from './preprocessing';

describe('pre-processing rules', () => {
  it('starts a rule as the spec says: Rule N, enabled, delimiter ;', () => {
    const rule = newRule(2);
    expect(rule).toMatchObject({
      name: 'Rule 2',
      enabled: true,
      delimiter: ';',
      sourceColumn: '',
      targetColumn: '',
    });
    expect(newRule(2).id).not.toBe(rule.id);
  });

  it('asks for both columns, two different ones and a delimiter on enabled rules', () => {
    const rule = { ...newRule(1), sourceColumn: 'Authors', targetColumn: 'Email Addresses' };
    expect(rulesProblem([rule])).toBeNull();
    expect(rulesProblem([])).toMatch(/at least one enabled rule/);
    expect(rulesProblem([{ ...rule, targetColumn: '' }])).toBe('Rule 1 needs a source and a target column.');
    expect(rulesProblem([{ ...rule, targetColumn: 'Authors' }])).toBe('Rule 1 needs two different columns.');
    expect(rulesProblem([{ ...rule, delimiter: '' }])).toBe('Rule 1 needs a delimiter.');
    // A disabled rule is not checked, but one enabled rule is still needed.
    expect(rulesProblem([rule, { ...newRule(2), enabled: false }])).toBeNull();
  });

  it('sends split rules, naming unnamed ones by position', () => {
    const rules = toRequestRules([{ ...newRule(1), name: ' ', sourceColumn: 'A', targetColumn: 'B' }]);
    expect(rules).toEqual([
      expect.objectContaining({
        name: 'Rule 1',
        ruleType: 'split',
        sourceColumn: 'A',
        targetColumn: 'B',
        delimiter: ';',
      }),
    ]);
  });
});
