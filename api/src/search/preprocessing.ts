/**
 * Export pre-processing (spec section 3, "Pre-processing rule"; only `split` exists): a rule splits
 * its source and target columns on its delimiter and turns one row into one row per pair, pairing
 * the pieces by position (the first author with the first email, …), trimming each piece and
 * keeping every other column as it is. A piece missing on one side is empty; a pair empty on both
 * sides is dropped; a row always yields at least one row. Rules apply in order, each to the rows the
 * previous one produced.
 */

import type { ExpansionDetail } from '@sift/shared/contracts';

export type { ExpansionDetail };

/** A rule as the export request carries it (after defaults). */
export interface SplitRule {
  name: string;
  enabled: boolean;
  sourceColumn: string;
  targetColumn: string;
  delimiter: string;
  ruleType: 'split';
}

/** The pairs one rule makes of a row: pieces of source and target by position, trimmed. */
export function splitPairs(
  rule: SplitRule,
  row: Record<string, string>,
): { source: string; target: string }[] {
  const pieces = (v: string | undefined) => (v ?? '').split(rule.delimiter).map((p) => p.trim());
  const sources = pieces(row[rule.sourceColumn]);
  const targets = pieces(row[rule.targetColumn]);
  const pairs: { source: string; target: string }[] = [];
  for (let i = 0; i < Math.max(sources.length, targets.length); i++) {
    const source = sources[i] ?? '';
    const target = targets[i] ?? '';
    if (source || target) pairs.push({ source, target });
  }
  return pairs.length ? pairs : [{ source: '', target: '' }];
}

/** The rows one row becomes under the enabled rules (the row itself when no rule applies). */
export function applyRules(rules: SplitRule[], row: Record<string, string>): Record<string, string>[] {
  let rows = [row];
  for (const rule of rules) {
    if (!rule.enabled || !rule.delimiter) continue;
    rows = rows.flatMap((r) =>
      splitPairs(rule, r).map((p) => ({
        ...r,
        [rule.sourceColumn]: p.source,
        [rule.targetColumn]: p.target,
      })),
    );
  }
  return rows;
}
