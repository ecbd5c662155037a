/**
 * Client-side checks of files chosen for upload (spec section 5). The server checks again (size,
 * extension against content); these only spare a pointless upload.
 */
import { ACCEPTED_EXTENSIONS, hasAcceptedExtension } from '@sift/shared/contracts';

export { ACCEPTED_EXTENSIONS, hasAcceptedExtension };

export const MB = 1024 * 1024;
/** Files chosen with the file picker. */
export const SELECTION_MAX_BYTES = 100 * MB;
/** Files dropped on the upload screen (spec: "differing reading"). */
export const DROP_MAX_BYTES = 500 * MB;
/** Above this an informational large-file toast is shown. */
export const LARGE_FILE_BYTES = 50 * MB;

/** The `accept` attribute of the file input. */
export const ACCEPT_ATTRIBUTE = ACCEPTED_EXTENSIONS.join(',');

const SPREADSHEET_MEDIA_TYPES = new Set([
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-excel',
  'text/csv',
  'application/csv',
]);

/** The parts of a browser File the checks read (so tests need no DOM). */
export interface FileLike {
  name: string;
  size: number;
  type: string;
}

export interface ValidationResult<F extends FileLike> {
  accepted: F[];
  /** Messages to show, in order; empty when everything was accepted. */
  errors: string[];
  /** Accepted files over the large-file threshold (informational). */
  large: F[];
}

/**
 * Files chosen with the picker: an Excel or CSV media type or an accepted extension, at most
 * 100 MB each.
 */
export function validateSelectedFiles<F extends FileLike>(files: readonly F[]): ValidationResult<F> {
  if (files.length === 0) return { accepted: [], errors: ['No files selected for upload'], large: [] };
  const accepted: F[] = [];
  const invalid: F[] = [];
  for (const file of files) {
    const typeOk = SPREADSHEET_MEDIA_TYPES.has(file.type.toLowerCase()) || hasAcceptedExtension(file.name);
    if (typeOk && file.size <= SELECTION_MAX_BYTES) accepted.push(file);
    else invalid.push(file);
  }
  const errors: string[] = [];
  if (invalid.length > 0)
    errors.push(`Invalid files (${invalid.length}): ${invalid.map((f) => f.name).join(', ')}`);
  if (accepted.length === 0) {
    errors.push('No valid files selected. Please choose Excel (.xlsx, .xls) or CSV files under 100MB.');
  }
  return { accepted, errors, large: accepted.filter((file) => file.size > LARGE_FILE_BYTES) };
}

/**
 * Files dropped on the upload screen, as the spec words it (section 4, "differing reading"): the
 * CSV media type (`text/csv`) or a name ending in .xlsx or .xls (case-insensitive), at most 500 MB
 * each; one message per rejected file. A `.csv` the browser gives no CSV type (an empty type, or
 * Excel's `application/vnd.ms-excel` on Windows) is refused here; the file picker takes it.
 */
export function validateDroppedFiles<F extends FileLike>(files: readonly F[]): ValidationResult<F> {
  if (files.length === 0) return { accepted: [], errors: ['No files selected for upload'], large: [] };
  const accepted: F[] = [];
  const errors: string[] = [];
  for (const file of files) {
    if (!(file.type.toLowerCase() === 'text/csv' || /\.xlsx?$/i.test(file.name))) {
      errors.push(`Invalid file type: ${file.name}. Please upload Excel (.xlsx, .xls) or CSV files.`);
    } else if (file.size > DROP_MAX_BYTES) {
      errors.push(`File too large: ${file.name}. Maximum size is 500MB.`);
    } else {
      accepted.push(file);
    }
  }
  return { accepted, errors, large: accepted.filter((file) => file.size > LARGE_FILE_BYTES) };
}
