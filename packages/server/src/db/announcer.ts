import { AsyncResource } from 'node:async_hooks';

/** NOTIFY payloads must stay under 8000 bytes. */
export const MAX_NOTIFY_PAYLOAD_BYTES = 7_500;
/** pg_notify calls per statement at most (a burst is sent in several). */
const MAX_NOTIFIES_PER_STATEMENT = 100;

/** Sends these (channel, payload) pairs with NOTIFY in one autocommit statement. */
export type NotifySender = (notifies: ReadonlyArray<readonly [channel: string, payload: string]>) => Promise<void>;

/**
 * Announces changes that have already committed, with NOTIFY, outside the transaction that made them.
 *
 * A NOTIFY inside a transaction makes its COMMIT take PostgreSQL's global notify lock, WAL flush included: every
 * notifying commit waits for the one before it, so the money writes that announced balance changes could not share a
 * flush. Here the announcements of many commits go out together: at most one statement is in flight, and whatever
 * arrives meanwhile is sent by the next one. JSON announcements on one channel are packed into arrays (read them with
 * `unpackAnnouncements`); wake-ups (no payload) are sent once per statement.
 *
 * An announcement is a hint that something changed (a live event, a job wake-up): one lost to a crash right after the
 * commit, or to a failed send (logged), is made up by the listener's own refresh (clients refetch on reconnect, jobs
 * poll). It is never used for anything that must happen.
 */
export class Announcer {
  private readonly json = new Map<string, string[]>();
  private readonly wakes = new Set<string>();
  private sending: Promise<void> | undefined;
  /**
   * `drain` in the async context the announcer was made in, not in the one of the request whose commit it announces
   * first: the sends are no part of that request (its logs, its counted round trips).
   */
  private readonly drainDetached = AsyncResource.bind(() => this.drain());

  constructor(
    private readonly send: NotifySender,
    private readonly onError: (error: Error) => void,
  ) {}

  /** Announces `payload` (a JSON text) on `channel`; it may arrive packed with others in an array. */
  announceJson(channel: string, payload: string): void {
    // Room for the array's brackets.
    if (Buffer.byteLength(payload) > MAX_NOTIFY_PAYLOAD_BYTES - 2) throw new Error(`An announcement on ${channel} is longer than a NOTIFY payload may be`);
    const queued = this.json.get(channel);
    if (queued) queued.push(payload);
    else this.json.set(channel, [payload]);
    this.schedule();
  }

  /** Wakes the listeners of `channel` (an empty payload; several wake-ups before the next send are one). */
  wake(channel: string): void {
    this.wakes.add(channel);
    this.schedule();
  }

  /** Resolves when everything announced so far has been sent (or failed). */
  async flush(): Promise<void> {
    while (this.sending) await this.sending;
  }

  private schedule(): void {
    this.sending ??= this.drainDetached().finally(() => {
      this.sending = undefined;
    });
  }

  private async drain(): Promise<void> {
    // Let the announcements made in the same turn of the event loop join the first statement.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.json.size || this.wakes.size) {
      const notifies: Array<readonly [string, string]> = [];
      for (const [channel, payloads] of this.json) for (const packed of pack(payloads)) notifies.push([channel, packed]);
      for (const channel of this.wakes) notifies.push([channel, '']);
      this.json.clear();
      this.wakes.clear();
      for (let i = 0; i < notifies.length; i += MAX_NOTIFIES_PER_STATEMENT) {
        try {
          await this.send(notifies.slice(i, i + MAX_NOTIFIES_PER_STATEMENT));
        } catch (error) {
          this.onError(error as Error);
        }
      }
    }
  }
}

/** JSON payloads as arrays of them, each array within the NOTIFY payload limit. */
function pack(payloads: string[]): string[] {
  const out: string[] = [];
  let current = '';
  let bytes = 0;
  for (const payload of payloads) {
    const size = Buffer.byteLength(payload);
    // The array so far, a comma, this payload and the closing bracket must fit.
    if (current && bytes + size + 2 > MAX_NOTIFY_PAYLOAD_BYTES) {
      out.push(`${current}]`);
      current = '';
    }
    if (current) {
      current += `,${payload}`;
      bytes += size + 1;
    } else {
      current = `[${payload}`;
      bytes = size + 1;
    }
  }
  if (current) out.push(`${current}]`);
  return out;
}

/** The values of a NOTIFY payload sent by `announceJson` (an array of them), or a single JSON value sent directly. */
export function unpackAnnouncements(payload: string): unknown[] {
  const parsed: unknown = JSON.parse(payload);
  return Array.isArray(parsed) ? parsed : [parsed];
}
