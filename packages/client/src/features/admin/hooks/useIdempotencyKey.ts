import { useCallback, useRef } from 'react';
import { newIdempotencyKey } from '../store/adminApi';

/**
 * An Idempotency-Key per distinct request body of one form: a double click or a retry of the same money action is
 * applied once, while a corrected body (after a refusal) gets a fresh key instead of a 422.
 */
export function useIdempotencyKey() {
  const last = useRef<{ body: string; key: string } | null>(null);
  return useCallback((body: unknown) => {
    const text = JSON.stringify(body);
    if (last.current?.body !== text) last.current = { body: text, key: newIdempotencyKey() };
    return last.current.key;
  }, []);
}
