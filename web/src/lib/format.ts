/** A date and time in the reader's locale, or 'Unknown date' when missing or unreadable. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return 'Unknown date';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return 'Unknown date';
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** `1,234` in the reader's locale; blank for a missing number. */
export function formatCount(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? value.toLocaleString() : '';
}

/** Up to two initials of a full name; 'U' when there is no name. */
export function initials(firstName: string | null | undefined, lastName: string | null | undefined): string {
  const letters = [firstName, lastName]
    .map((part) => (part ?? '').trim().charAt(0).toUpperCase())
    .filter(Boolean)
    .join('');
  return letters || 'U';
}

/** The date part alone in the reader's locale, or 'Unknown date' (export history, spec section 2). */
export function formatDate(value: string | null | undefined): string {
  const date = value ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime())
    ? date.toLocaleDateString(undefined, { dateStyle: 'medium' })
    : 'Unknown date';
}

/** The time part alone in the reader's locale, or 'Unknown time'. */
export function formatTime(value: string | null | undefined): string {
  const date = value ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime())
    ? date.toLocaleTimeString(undefined, { timeStyle: 'short' })
    : 'Unknown time';
}

/** `1 record` / `N records`, with the count in the reader's locale. */
export function pluralCount(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}

/** `12.3 MB`, `840 KB`, `512 B` (1 MB = 1,048,576 bytes). */
export function formatBytes(bytes: number): string {
  const mb = 1024 * 1024;
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes >= mb) return `${(bytes / mb).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}
