/**
 * Why a file was refused. `unsupported` (HTTP 415): not a spreadsheet type Sift reads, or content
 * that is not what its extension says; `unsafe` (422): a zip bomb, too many parts, or XML with a
 * DOCTYPE; `unreadable` (422): corrupt; `empty`: no data (the file fails at ingest).
 */
export type InvalidFileKind = 'unsupported' | 'unsafe' | 'unreadable' | 'empty';

/**
 * A problem with the uploaded file itself: retrying cannot help, and `message` is shown to the user
 * as the reason the file was refused or failed.
 */
export class InvalidFileError extends Error {
  override readonly name = 'InvalidFileError';
  readonly kind: InvalidFileKind;

  constructor(message: string, kind: InvalidFileKind = 'unreadable') {
    super(message);
    this.kind = kind;
  }
}
