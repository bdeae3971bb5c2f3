import { lazy, type ComponentType } from 'react';

const CHUNK_TIMEOUT_MS = 120_000;

/** React.lazy with the spec's 120 s limit on loading a screen's chunk. */
export function lazyScreen<T extends ComponentType<object>>(load: () => Promise<{ default: T }>) {
  return lazy(() =>
    Promise.race([load(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error('Loading the screen timed out.')), CHUNK_TIMEOUT_MS))]),
  );
}
