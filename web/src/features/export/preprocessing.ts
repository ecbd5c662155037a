import type { PreprocessingRule } from '@sift/shared/contracts';

/** A split rule as edited in the export dialog (spec section 3, pre-processing rule). */
export interface RuleDraft {
  /** Stable key for the list. */
  id: string;
  name: string;
  enabled: boolean;
  sourceColumn: string;
  targetColumn: string;
  delimiter: string;
  /** How pieces pair: by position (the spec's), or by name as author files pair emails. */
  pairing: 'position' | 'name';
}

/** Spec section 9: the preview shows 2 examples of 3 pairs each. */
export const PREVIEW_EXAMPLES = 2;
export const PREVIEW_PAIRS = 3;

let nextId = 0;

/** A new rule: named 'Rule N' (N = its position from 1), enabled, delimiter ';', paired by position. */
export function newRule(position: number): RuleDraft {
  nextId += 1;
  return {
    id: `rule-${nextId}`,
    name: `Rule ${position}`,
    enabled: true,
    sourceColumn: '',
    targetColumn: '',
    delimiter: ';',
    pairing: 'position',
  };
}

/** What is wrong with the rules, or null: each enabled rule needs both columns and a delimiter. */
export function rulesProblem(rules: readonly RuleDraft[]): string | null {
  const enabled = rules.filter((rule) => rule.enabled);
  if (enabled.length === 0) return 'Add at least one enabled rule, or turn pre-processing off.';
  for (const rule of enabled) {
    const name = rule.name.trim() || 'A rule';
    if (!rule.sourceColumn || !rule.targetColumn) return `${name} needs a source and a target column.`;
    if (rule.sourceColumn === rule.targetColumn) return `${name} needs two different columns.`;
    if (!rule.delimiter) return `${name} needs a delimiter.`;
  }
  return null;
}

/** The rules as the export request sends them (`ruleType` split; unnamed ones become 'Rule N'). */
export function toRequestRules(rules: readonly RuleDraft[]): PreprocessingRule[] {
  return rules.map((rule, i) => ({
    id: rule.id,
    name: rule.name.trim() || `Rule ${i + 1}`,
    enabled: rule.enabled,
    sourceColumn: rule.sourceColumn,
    targetColumn: rule.targetColumn,
    delimiter: rule.delimiter,
    ruleType: 'split',
    pairing: rule.pairing,
  }));
}
