import { useMemo } from 'react';
import { create } from 'zustand';
import { createJSONStorage, persist, type StateStorage } from 'zustand/middleware';
import { decodeJwtPayload } from '../../auth/jwt';
import { useAuthStore } from '../../auth/store';

/** Where the widths are kept in the browser's local storage. */
export const COLUMN_WIDTHS_KEY = 'sift:column-widths';
/** At most this many columns' widths are kept per person (the oldest set are forgotten first). */
export const MAX_KEPT_WIDTHS = 1_000;

/**
 * The results grid's column widths a person set by dragging (or with the keyboard), per person (the
 * token's `sub`) and per column name (px), kept in local storage so a reload, another search or
 * another file with the same column keeps them. The one owner of these widths.
 */
export interface ColumnWidthsState {
  byUser: Record<string, Record<string, number>>;
  /** Keeps `widths` (column → px) for `user`, on top of what was kept. */
  keep: (user: string, widths: Readonly<Record<string, number>>) => void;
}

export function createColumnWidthsStore(storage: () => StateStorage) {
  return create<ColumnWidthsState>()(
    persist(
      (set) => ({
        byUser: {},
        keep: (user, widths) =>
          set((state) => {
            const current = state.byUser[user] ?? {};
            // Re-set entries move to the end: the oldest are at the front when the cap drops some.
            const rest = Object.entries(current).filter(([column]) => !(column in widths));
            const merged = [...rest, ...Object.entries(widths)].slice(-MAX_KEPT_WIDTHS);
            return { byUser: { ...state.byUser, [user]: Object.fromEntries(merged) } };
          }),
      }),
      { name: COLUMN_WIDTHS_KEY, version: 1, storage: createJSONStorage(storage) },
    ),
  );
}

export const useColumnWidthsStore = createColumnWidthsStore(() => window.localStorage);

/** The signed-in person's id (the token's `sub`), or '' when it cannot be read. */
function useUserKey(): string {
  const token = useAuthStore((s) => s.token);
  const sub = decodeJwtPayload(token)?.sub;
  return typeof sub === 'string' ? sub : '';
}

/**
 * The signed-in person's kept widths (column → px) and the function that keeps more. Reads them
 * without subscribing: a grid takes them when its columns change, not while a column is dragged.
 */
export function useKeptColumnWidths(): {
  read: () => Readonly<Record<string, number>>;
  keep: (widths: Readonly<Record<string, number>>) => void;
} {
  const user = useUserKey();
  const keep = useColumnWidthsStore((s) => s.keep);
  // The same object while the person is: the grid's effect that keeps widths depends on it.
  return useMemo(
    () => ({
      read: () => useColumnWidthsStore.getState().byUser[user] ?? {},
      keep: (widths: Readonly<Record<string, number>>) => keep(user, widths),
    }),
    [user, keep],
  );
}
