import { describe, expect, it, vi } from 'vitest';
import type { StateStorage } from 'zustand/middleware';
import { AUTH_STORAGE_KEY, createAuthStore, waitForRehydration } from './store';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  const storage: StateStorage = {
    getItem: (name) => data.get(name) ?? null,
    setItem: (name, value) => void data.set(name, value),
    removeItem: (name) => void data.delete(name),
  };
  return { data, storage };
}

describe('auth store', () => {
  it('starts signed out', () => {
    const { storage } = memoryStorage();
    const store = createAuthStore(() => storage);
    expect(store.getState().token).toBeNull();
    expect(store.getState().permissions).toEqual([]);
  });

  it('persists token and permissions under persist:root, and nothing else', () => {
    const { data, storage } = memoryStorage();
    const store = createAuthStore(() => storage);
    store.getState().setToken('abc');
    store.getState().setPermissions(['admin:view']);

    expect(AUTH_STORAGE_KEY).toBe('persist:root');
    const saved = JSON.parse(data.get('persist:root') ?? 'null') as { state: Record<string, unknown> };
    expect(saved.state).toEqual({ token: 'abc', permissions: ['admin:view'] });
  });

  it('restores the persisted state in a new store (a page reload)', async () => {
    const { storage } = memoryStorage({
      'persist:root': JSON.stringify({ state: { token: 't1', permissions: ['a', 'b'] }, version: 1 }),
    });
    const store = createAuthStore(() => storage);
    await expect(waitForRehydration(store, 100)).resolves.toBe(true);
    expect(store.getState().token).toBe('t1');
    expect(store.getState().permissions).toEqual(['a', 'b']);
  });

  it('clearCredentials empties both token and permissions, persisted too', () => {
    const { data, storage } = memoryStorage();
    const store = createAuthStore(() => storage);
    store.getState().setToken('abc');
    store.getState().setPermissions(['admin:view']);
    store.getState().clearCredentials();
    expect(store.getState()).toMatchObject({ token: null, permissions: [] });
    const saved = JSON.parse(data.get('persist:root') ?? 'null') as { state: Record<string, unknown> };
    expect(saved.state).toEqual({ token: null, permissions: [] });
  });

  it('does not wait forever for a storage that never answers', async () => {
    const never: StateStorage = {
      getItem: () => new Promise<string | null>(() => {}),
      setItem: () => {},
      removeItem: () => {},
    };
    const store = createAuthStore(() => never);
    vi.useFakeTimers();
    try {
      const waited = waitForRehydration(store, 50);
      // The storage never answers: only the 50 ms bound can settle the wait.
      await vi.advanceTimersByTimeAsync(50);
      await expect(waited).resolves.toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
