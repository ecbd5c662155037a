/** Export (spec section 3): the export request, its pre-processing rules and export history. */
import { z } from 'zod';
import { FILE_TYPES } from './files.ts';
import { searchRequestSchema } from './search.ts';

export const EXPORT_FORMATS = ['XLSX', 'CSV'] as const;

/**
 * `POST /api/file/export` body: the search request plus `format` (spec section 3). The answer is the
 * file itself, streamed, with a `Content-Disposition` filename (`customFilename` + extension, else
 * `search_results_<ISO date>`). `columns` limits and orders the exported columns.
 */
/**
 * A pre-processing rule (spec section 3): split `sourceColumn` and `targetColumn` on `delimiter`
 * into one row per pair (see api/src/export/preprocessing.ts). `name` defaults to 'Rule N'.
 * `pairing` (issue 23): `position` (the spec's: first with first, …) or `name`, which pairs each
 * target piece (an email) with the source piece (an author) its address names, as AUTHOR files
 * do, since in real exports the email list is often shorter than the author list.
 */
export const preprocessingRuleSchema = z.object({
  id: z.union([z.string(), z.number()]).optional(),
  name: z.string().trim().max(200).optional(),
  enabled: z.boolean().default(true),
  sourceColumn: z.string().trim().min(1, 'Each pre-processing rule needs a source column.'),
  targetColumn: z.string().trim().min(1, 'Each pre-processing rule needs a target column.'),
  delimiter: z.string().min(1).max(20).default(';'),
  ruleType: z.literal('split').default('split'),
  pairing: z.enum(['position', 'name']).default('position'),
});
export type PreprocessingRule = z.input<typeof preprocessingRuleSchema>;

/** Rules with their defaults applied, unnamed ones called 'Rule N' (N = position, from 1). */
const preprocessingRulesSchema = z
  .array(preprocessingRuleSchema)
  .max(20)
  .default([])
  .transform((rules) => rules.map((r, i) => ({ ...r, name: r.name || `Rule ${i + 1}` })));

/** One example in a pre-processing preview: a row and the pairs a rule made of it (at most 3 shown). */
export interface ExpansionDetail {
  ruleName: string;
  /** Zero-based position of the row among the matching rows. */
  rowIndex: number;
  sourceColumn: string;
  targetColumn: string;
  originalSourceValue: string;
  originalTargetValue: string;
  matchedPairs: { source: string; target: string }[];
}

/**
 * `POST /api/file/export/preview` (body: an export request with its rules): how many matching rows
 * there are, how many the export will have after pre-processing, and 2 examples of rows that
 * expand, with up to 3 pairs each.
 */
export interface PreprocessingPreview {
  originalCount: number;
  processedCount: number;
  expansionDetails: ExpansionDetail[];
}

export const exportRequestSchema = searchRequestSchema.omit({ page: true, size: true, facets: true }).extend({
  format: z.enum(EXPORT_FORMATS).default('XLSX'),
  columns: z.array(z.string()).optional(),
  customFilename: z.string().trim().max(200).optional(),
  includeHeaders: z.boolean().default(true),
  /** Add File, Sheet and Row columns before the data columns. */
  includeMetadata: z.boolean().default(false),
  fileType: z.enum(FILE_TYPES).optional(),
  /** Apply `preprocessingRules` (enabled ones, in order) to the exported rows. */
  enablePreprocessing: z.boolean().default(false),
  preprocessingRules: preprocessingRulesSchema,
});
export type ExportRequest = z.input<typeof exportRequestSchema>;

/**
 * An entry of `GET /api/file/exports` (newest first; spec section 3). `exportCriteria` holds the
 * export request's filters as sent, plus `columns`: the number of columns exported. The file itself
 * is at `GET /api/file/exports/{id}/download`; `DELETE /api/file/exports/{id}` removes both (204).
 */
export interface ExportHistoryEntry {
  id: string;
  exportFilename: string;
  exportFormat: (typeof EXPORT_FORMATS)[number];
  rowCount: number;
  createdAt: string;
  sizeBytes: number;
  exportCriteria: Record<string, unknown> & { columns: number };
}
