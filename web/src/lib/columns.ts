/** Columns whose name contains `filter` (case-insensitive, trimmed), sorted by name for a checklist. */
export function sortedColumns(columns: readonly string[], filter: string): string[] {
  const needle = filter.trim().toLowerCase();
  return columns
    .filter((column) => !needle || column.toLowerCase().includes(needle))
    .sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true }));
}
