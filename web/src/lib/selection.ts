/** How many of a page's ids are selected: every one, some, or none (an empty page counts as none). */
export function pageSelection(
  pageIds: readonly string[],
  selected: ReadonlySet<string>,
): 'all' | 'some' | 'none' {
  const count = pageIds.filter((id) => selected.has(id)).length;
  return count === 0 ? 'none' : count === pageIds.length ? 'all' : 'some';
}

/** The selection with every id of `ids` added (`on`) or removed. */
export function withIds(selected: ReadonlySet<string>, ids: readonly string[], on: boolean): Set<string> {
  const next = new Set(selected);
  for (const id of ids) {
    if (on) next.add(id);
    else next.delete(id);
  }
  return next;
}

/** The selection without ids that no longer exist (deleted elsewhere); the same set when nothing changed. */
export function keepExisting(
  selected: ReadonlySet<string>,
  existing: readonly string[],
): ReadonlySet<string> {
  const present = new Set(existing);
  for (const id of selected)
    if (!present.has(id)) return new Set([...selected].filter((s) => present.has(s)));
  return selected;
}
