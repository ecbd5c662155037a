import { useCallback, useMemo, useState } from 'react';

/** A set of ids held in state, for per-row busy flags (deleting, downloading, updating). */
export interface IdSet {
  has(id: string): boolean;
  add(id: string): void;
  remove(id: string): void;
}

export function useIdSet(): IdSet {
  const [ids, setIds] = useState<ReadonlySet<string>>(() => new Set());
  const add = useCallback((id: string) => setIds((current) => new Set(current).add(id)), []);
  const remove = useCallback(
    (id: string) =>
      setIds((current) => {
        const next = new Set(current);
        next.delete(id);
        return next;
      }),
    [],
  );
  return useMemo(() => ({ has: (id: string) => ids.has(id), add, remove }), [ids, add, remove]);
}
