/**
 * Export pre-processing (spec section 3, "Pre-processing rule"; only `split` exists): a rule splits
 * its source and target columns on its delimiter and turns one row into one row per pair, pairing
 * the pieces by position (the first author with the first email, …), trimming each piece and
 * keeping every other column as it is. A piece missing on one side is empty; a pair empty on both
 * sides is dropped; a row always yields at least one row. Rules apply in order, each to the rows the
 * previous one produced.
 */

import { pairEmails } from '@sift/shared/author-pairing';
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
  /** `position` (default) or `name`: see splitPairs. */
  pairing?: 'position' | 'name';
}

/**
 * The pairs one rule makes of a row: pieces of source and target (trimmed) by position; with
 * `pairing: 'name'`, each target piece goes with the source piece its text names (an email's
 * address naming an author, as AUTHOR files are paired: `@sift/shared/author-pairing`), by
 * position only when the counts agree and no name says otherwise, and a target piece no source
 * fits gets a pair of its own with an empty source.
 */
export function splitPairs(
  rule: SplitRule,
  row: Record<string, string>,
): { source: string; target: string }[] {
  const pieces = (v: string | undefined) => (v ?? '').split(rule.delimiter).map((p) => p.trim());
  const sources = pieces(row[rule.sourceColumn]);
  const targets = pieces(row[rule.targetColumn]);
  if (rule.pairing === 'name') return pairedByName(sources.filter(Boolean), targets.filter(Boolean));
  const pairs: { source: string; target: string }[] = [];
  for (let i = 0; i < Math.max(sources.length, targets.length); i++) {
    const source = sources[i] ?? '';
    const target = targets[i] ?? '';
    if (source || target) pairs.push({ source, target });
  }
  return pairs.length ? pairs : [{ source: '', target: '' }];
}

function pairedByName(sources: string[], targets: string[]): { source: string; target: string }[] {
  const { byAuthor, unpaired } = pairEmails(sources, [], targets);
  const pairs = [
    ...sources.map((source, i) => ({ source, target: byAuthor[i] ?? '' })),
    ...unpaired.map((target) => ({ source: '', target })),
  ];
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
