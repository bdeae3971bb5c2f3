/** One queued call of a batch: settled by the batch that carries it. */
export interface QueuedCall {
  reject(error: unknown): void;
}

/**
 * Calls that arrive while this instance's earlier batches are out wait and go together (group commit and grouped
 * reads): the queue, the flush and the count of batches in flight. Nothing waits for a timer: with fewer than
 * `inFlight` batches out a call goes at once (alone when the instance is quiet). A batch that throws rejects every call
 * it carries that it has not settled.
 */
export abstract class BatchQueue<Call extends QueuedCall> {
  protected readonly queue: Call[] = [];
  private inFlight = 0;

  protected constructor(protected readonly limits: { inFlight: number; size: number }) {}

  /** Sends the batch and settles each call in it. */
  protected abstract run(batch: Call[]): Promise<void>;

  /** The next batch, taken out of the queue (the oldest calls): empty when none of the queued calls may go yet. */
  protected take(): Call[] {
    return this.queue.splice(0, this.limits.size);
  }

  /** Called when a batch has settled, before the queue is flushed again. */
  protected settled(_batch: Call[]): void {}

  protected enqueue(call: Call): void {
    this.queue.push(call);
    this.flush();
  }

  private flush(): void {
    while (this.inFlight < this.limits.inFlight && this.queue.length) {
      const batch = this.take();
      // Every queued call waits for a batch in flight: its end flushes again.
      if (!batch.length) return;
      void this.send(batch);
    }
  }

  private async send(batch: Call[]): Promise<void> {
    this.inFlight += 1;
    try {
      await this.run(batch);
    } catch (error) {
      for (const call of batch) call.reject(error);
    } finally {
      this.settled(batch);
      this.inFlight -= 1;
      this.flush();
    }
  }
}
