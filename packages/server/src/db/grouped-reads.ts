import { BatchQueue, type QueuedCall } from './batch-queue';
import type { Database } from './database';
import type { SqlFunction } from './sql-function';

interface Pending extends QueuedCall {
  args: readonly unknown[];
  resolve: (value: unknown) => void;
}

/**
 * Reads of one STABLE function that arrive while earlier ones are out go together (db/batch-queue.ts), as one call of
 * its batch form (`manyFunction`: a JSON array of calls, each its values in order; answers a JSON array of results in
 * the same order): the read side of the group commit (modules/ledger/group-commit.ts). When a batch of several reads
 * fails, each of them is read again alone, so a read that fails fails only itself.
 */
export class GroupedReads extends BatchQueue<Pending> {
  constructor(
    private readonly db: Database,
    private readonly manyFunction: SqlFunction,
    limits: { inFlight: number; size: number } = { inFlight: 2, size: 64 },
  ) {
    super(limits);
  }

  read(args: readonly unknown[]): Promise<unknown> {
    return new Promise((resolve, reject) => this.enqueue({ args, resolve, reject }));
  }

  protected async run(batch: Pending[]): Promise<void> {
    let results: unknown[];
    try {
      results = await this.readMany(batch);
    } catch (error) {
      if (batch.length === 1) throw error;
      // A read only: each again alone (at once, not queued: these reads waited already).
      await Promise.all(batch.map((pending) => this.readMany([pending]).then(([result]) => pending.resolve(result), pending.reject)));
      return;
    }
    batch.forEach((pending, i) => pending.resolve(results[i]));
  }

  private async readMany(batch: Pending[]): Promise<unknown[]> {
    const results = (await this.manyFunction.call(this.db, [batch.map(({ args }) => args)])) as unknown[] | null;
    if (!Array.isArray(results) || results.length !== batch.length)
      throw new Error(`${this.manyFunction.name} answered ${results?.length ?? 0} results for ${batch.length} reads`);
    return results;
  }
}
