import { create } from 'zustand';
import { createJSONStorage, persist, type StateStorage } from 'zustand/middleware';

/**
 * Client-side auth state (spec sections 3 and 4): the access token and the permissions read from
 * it, persisted in local storage under `persist:root` (key root, prefix persist:). The API cache
 * is not persisted.
 */
export interface AuthState {
  token: string | null;
  permissions: string[];
  setToken: (token: string | null) => void;
  setPermissions: (permissions: string[]) => void;
  /** Signed out: token null, permissions empty. */
  clearCredentials: () => void;
}

export const AUTH_STORAGE_KEY = 'persist:root';
/** Spec section 4: wait at most this long for the persisted state before showing content. */
export const REHYDRATION_TIMEOUT_MS = 5_000;

export function createAuthStore(storage: () => StateStorage) {
  return create<AuthState>()(
    persist(
      (set) => ({
        token: null,
        permissions: [],
        setToken: (token) => set({ token }),
        setPermissions: (permissions) => set({ permissions: [...permissions] }),
        clearCredentials: () => set({ token: null, permissions: [] }),
      }),
      {
        name: AUTH_STORAGE_KEY,
        version: 1,
        storage: createJSONStorage(storage),
        partialize: (state) => ({ token: state.token, permissions: state.permissions }),
      },
    ),
  );
}

export type AuthStore = ReturnType<typeof createAuthStore>;

/** The app's store, in the browser's local storage. */
export const useAuthStore = createAuthStore(() => window.localStorage);

/**
 * Resolves once the store has read its persisted state, or after `timeoutMs` (so a broken storage
 * never blocks the app). Resolves to whether rehydration finished.
 */
export function waitForRehydration(store: AuthStore = useAuthStore, timeoutMs = REHYDRATION_TIMEOUT_MS) {
  return new Promise<boolean>((resolve) => {
    if (store.persist.hasHydrated()) {
      resolve(true);
      return;
    }
    const timer = setTimeout(() => {
      unsubscribe();
      resolve(false);
    }, timeoutMs);
    const unsubscribe = store.persist.onFinishHydration(() => {
      clearTimeout(timer);
      unsubscribe();
      resolve(true);
    });
  });
}
