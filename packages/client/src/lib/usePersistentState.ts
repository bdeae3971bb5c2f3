import { useCallback, useState } from 'react';

function read<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

/** The keys usePersistentState has written, kept in localStorage too, so a sign-out in a later page load finds them. */
const INDEX_KEY = 'persistentStateKeys';

function remember(key: string): void {
  const keys = read<string[]>(INDEX_KEY, []);
  if (!keys.includes(key)) localStorage.setItem(INDEX_KEY, JSON.stringify([...keys, key]));
}

/**
 * Forgets every value usePersistentState wrote: called when a session ends, so the next person signing in on this
 * browser never opens on the previous customer's panels or tokens (their deposit address among them).
 */
export function clearPersistentState(): void {
  try {
    for (const key of read<string[]>(INDEX_KEY, [])) localStorage.removeItem(key);
    localStorage.removeItem(INDEX_KEY);
  } catch {
    // ignore storage errors
  }
}

/** useState mirrored in localStorage under `key` (JSON), so panels and selections survive reloads. */
export function usePersistentState<T>(key: string, fallback: T): [T, (value: T | ((previous: T) => T)) => void] {
  const [value, setValue] = useState<T>(() => read(key, fallback));
  const set = useCallback(
    (next: T | ((previous: T) => T)) => {
      setValue((previous) => {
        const resolved = typeof next === 'function' ? (next as (p: T) => T)(previous) : next;
        try {
          localStorage.setItem(key, JSON.stringify(resolved));
          remember(key);
        } catch {
          // ignore storage errors
        }
        return resolved;
      });
    },
    [key],
  );
  return [value, set];
}
