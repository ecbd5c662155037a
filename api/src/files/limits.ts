/**
 * What a file over the upload size limit is told (spec section 9's wording): `maxBytes` in MB,
 * whole from 1 MB, to two decimals below.
 */
export function fileTooLargeMessage(maxBytes: number): string {
  const mb = maxBytes / (1024 * 1024);
  return `File too large. Maximum size is ${mb >= 1 ? Math.round(mb) : Number(mb.toFixed(2))}MB.`;
}
