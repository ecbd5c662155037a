/**
 * A problem with the uploaded file itself (wrong type, corrupt, empty): retrying cannot help, and
 * `message` is shown to the user as the reason the file failed.
 */
export class InvalidFileError extends Error {
  override readonly name = 'InvalidFileError';
}
