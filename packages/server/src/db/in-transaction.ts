const RETRYABLE = new Set(['40001', '40P01']);

function sqlState(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A database handle that opens transactions (the API's `Database`, the signer's handle). */
export interface Transactional<Tx> {
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
}

/**
 * Runs `work` in one database transaction; a serialization failure or deadlock (which PostgreSQL resolves by
 * aborting one side) is retried from the start, so callers never see it. Use `tx` only inside.
 */
export async function inTransaction<Tx, T>(db: Transactional<Tx>, work: (tx: Tx) => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (attempt >= attempts || !RETRYABLE.has(sqlState(error) ?? '')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 10));
    }
  }
}

export { sqlState };
