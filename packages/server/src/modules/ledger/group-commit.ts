import { BatchQueue, type QueuedCall } from '../../db/batch-queue';
import type { Database } from '../../db/database';
import type { SqlFunction } from '../../db/sql-function';

/** At most this many batches of one operation in flight per instance, each of at most `size` calls (see 0065). */
export const GROUP_COMMIT_LIMITS = { inFlight: 2, size: 32 } as const;

/** One call's failure inside a batch: its SQLSTATE and message, as PostgreSQL raised them (a refusal's CP code included). */
export class BatchedCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'BatchedCallError';
  }
}

interface Pending extends QueuedCall {
  owner: string;
  /** Calls of a batch run in this order (see submit). */
  order: string;
  args: (shard: number) => readonly unknown[];
  resolve: () => void;
}

/**
 * Group commit of one money operation (issue 36): calls that arrive while this instance's earlier batches are being
 * written wait and go together (db/batch-queue.ts), as one call of the batch function (`cp_swap_batch`: each call
 * still the operation's own function, in a subtransaction of its own) — one round trip and one commit for many. One
 * owner's (customer's) calls are never in two batches at once, so this instance's batches never wait for each other's
 * row locks; a batch leases one platform shard for all its calls. A call the batch answers with an error rejects with it
 * (a refusal's code included); a failure of the whole batch rejects every call in it (nothing of it was written).
 */
export class GroupCommit extends BatchQueue<Pending> {
  /** Owners with a call in a batch in flight, and how many. */
  private readonly busy = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly batchFunction: SqlFunction,
    private readonly operation: SqlFunction,
    private readonly shards: { lease(): { shard: number; release: () => void } },
    limits: { inFlight: number; size: number } = GROUP_COMMIT_LIMITS,
  ) {
    super(limits);
  }

  /**
   * Runs the operation with `args(shard)` in the next batch that may take `owner`'s call; settles once it committed.
   * A batch runs its calls sorted by `order` (then as they came): calls that take an exclusive lock keyed by it (a
   * swap's house position of the token it pays out) take them in the same order in every batch, so two batches in
   * flight never wait for each other in a circle.
   */
  submit(owner: string, args: (shard: number) => readonly unknown[], order = ''): Promise<void> {
    return new Promise<void>((resolve, reject) => this.enqueue({ owner, order, args, resolve, reject }));
  }

  /** The oldest calls whose owners have none in flight (one owner's calls keep their order among equal keys). */
  protected override take(): Pending[] {
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    for (const pending of this.queue) {
      if (batch.length < this.limits.size && !this.busy.has(pending.owner)) batch.push(pending);
      else rest.push(pending);
    }
    this.queue.splice(0, this.queue.length, ...rest);
    for (const { owner } of batch) this.busy.set(owner, (this.busy.get(owner) ?? 0) + 1);
    // Array.prototype.sort is stable: one owner's calls keep their order among equal keys.
    return batch.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  }

  protected async run(batch: Pending[]): Promise<void> {
    const lease = this.shards.lease();
    try {
      const calls = batch.map(({ args }) => this.operation.jsonValues(args(lease.shard)));
      const results = (await this.batchFunction.call(this.db, [calls])) as Array<{ state?: string; message?: string }> | null;
      if (!Array.isArray(results) || results.length !== batch.length)
        throw new Error(`${this.batchFunction.name} answered ${results?.length ?? 0} results for ${batch.length} calls`);
      batch.forEach((pending, i) => {
        const { state, message } = results[i];
        if (state) pending.reject(new BatchedCallError(state, message ?? ''));
        else pending.resolve();
      });
    } finally {
      lease.release();
    }
  }

  protected override settled(batch: Pending[]): void {
    for (const { owner } of batch) {
      const left = (this.busy.get(owner) ?? 1) - 1;
      if (left > 0) this.busy.set(owner, left);
      else this.busy.delete(owner);
    }
  }
}
