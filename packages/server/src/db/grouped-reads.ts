import type { Database } from './database';
import type { SqlFunction } from './sql-function';

interface Pending {
  args: readonly unknown[];
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Reads of one STABLE function that arrive while earlier ones are out go together, as one call of its batch form
 * (`manyFunction`: a JSON array of calls, each its values in order; answers a JSON array of results in the same order):
 * the read side of the group commit (modules/ledger/group-commit.ts). Nothing waits for a timer: with fewer than
 * `inFlight` calls out a read goes at once. A failure of the call rejects every read in it.
 */
export class GroupedReads {
  private readonly queue: Pending[] = [];
  private inFlight = 0;

  constructor(
    private readonly db: Database,
    private readonly manyFunction: SqlFunction,
    private readonly limits: { inFlight: number; size: number } = { inFlight: 2, size: 64 },
  ) {}

  read(args: readonly unknown[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ args, resolve, reject });
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.limits.inFlight && this.queue.length) void this.send(this.queue.splice(0, this.limits.size));
  }

  private async send(batch: Pending[]): Promise<void> {
    this.inFlight += 1;
    try {
      const results = (await this.manyFunction.call(this.db, [batch.map(({ args }) => args)])) as unknown[] | null;
      if (!Array.isArray(results) || results.length !== batch.length)
        throw new Error(`${this.manyFunction.name} answered ${results?.length ?? 0} results for ${batch.length} reads`);
      batch.forEach((pending, i) => pending.resolve(results[i]));
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    } finally {
      this.inFlight -= 1;
      this.flush();
    }
  }
}
