import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { sql, type SQL } from 'drizzle-orm';
import type { ServerResponse } from 'node:http';
import { DATABASE, type Database, type DatabaseHandle, type Executor } from '../../db/database';
import { DATABASE_HANDLE } from '../../db/database.module';
import { MAX_NOTIFY_PAYLOAD_BYTES, unpackAnnouncements } from '../../db/announcer';

/** The PostgreSQL channel every instance LISTENs on. */
export const LIVE_CHANNEL = 'coinpurse_live';
/** One event's payload at most (an announcement packs several in an array: room for its brackets). */
const MAX_PAYLOAD_BYTES = MAX_NOTIFY_PAYLOAD_BYTES - 2;
export const HEARTBEAT_MS = 25_000;
const MAX_STREAMS_PER_USER = 10;

export type LiveEventType = 'notification' | 'balance';
export interface LiveEvent {
  type: LiveEventType;
  /** JSON data sent with the event (keep it small: a notification, or `{ token }` for a balance change). */
  data?: unknown;
}

interface Envelope {
  /** Recipient user id, or '*' for every connected customer (broadcasts). */
  u: string;
  e: LiveEventType;
  d: unknown;
}

interface Stream {
  userId: string;
  response: ServerResponse;
  heartbeat: NodeJS.Timeout;
  /** Re-checked at every heartbeat: a revoked or expired session ends the stream. */
  stillValid: () => Promise<boolean>;
}

/**
 * Live events for signed-in customers over server-sent events, fed through PostgreSQL LISTEN/NOTIFY so an event
 * published by any instance reaches the customer's stream on whichever instance holds it.
 *
 * `publish(userId, { type, data }, tx)` runs `pg_notify` on the caller's executor: inside a transaction it is
 * delivered only when (and if) that transaction commits. `announce(events)` is for changes already committed (the
 * one-statement money writes): sent soon after, together with other commits' events (see Announcer).
 */
@Injectable()
export class LiveEventsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('LiveEvents');
  private readonly streams = new Map<string, Set<Stream>>();
  private unlisten: (() => Promise<void>) | undefined;
  /** How often a stream gets a heartbeat comment and its session re-checked (tests shorten it). */
  heartbeatMs = HEARTBEAT_MS;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DATABASE_HANDLE) private readonly handle: DatabaseHandle,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (typeof this.handle?.listen !== 'function') return;
    this.unlisten = await this.handle.listen(LIVE_CHANNEL, (payload) => this.dispatch(payload));
  }

  async onModuleDestroy(): Promise<void> {
    for (const set of this.streams.values()) for (const stream of set) this.close(stream);
    this.streams.clear();
    await this.unlisten?.().catch(() => undefined);
    this.unlisten = undefined;
  }

  /** Sends `event` to the customer's open streams (on every instance) once the executor's transaction commits. */
  async publish(userId: string, event: LiveEvent, executor: Executor = this.db): Promise<void> {
    await this.notify({ u: userId, e: event.type, d: event.data ?? {} }, executor);
  }

  /** Like `publish` for several events, in one statement (one round trip). */
  async publishMany(events: Array<{ userId: string; event: LiveEvent }>, executor: Executor = this.db): Promise<void> {
    if (!events.length) return;
    await this.notifyAll(
      events.map(({ userId, event }) => ({ u: userId, e: event.type, d: event.data ?? {} })),
      executor,
    );
  }

  /** Sends these events to the customers' open streams (on every instance); for changes that have committed. */
  announce(events: Array<{ userId: string; event: LiveEvent }>): void {
    for (const { userId, event } of events) this.handle.announcer.announceJson(LIVE_CHANNEL, payloadOf({ u: userId, e: event.type, d: event.data ?? {} }));
  }

  /** Sends `event` to every connected customer. */
  async publishToAll(event: LiveEvent, executor: Executor = this.db): Promise<void> {
    await this.notify({ u: '*', e: event.type, d: event.data ?? {} }, executor);
  }

  /** How many streams are open on this instance (tests, metrics). */
  openStreams(userId?: string): number {
    if (userId) return this.streams.get(userId)?.size ?? 0;
    let total = 0;
    for (const set of this.streams.values()) total += set.size;
    return total;
  }

  /** Takes over an HTTP response as an event stream for the user until the client goes away. */
  open(userId: string, response: ServerResponse, stillValid: () => Promise<boolean>): void {
    let set = this.streams.get(userId);
    if (!set) this.streams.set(userId, (set = new Set()));
    // A runaway client (or many tabs) cannot hold unlimited connections: the oldest stream makes room.
    if (set.size >= MAX_STREAMS_PER_USER) this.close(set.values().next().value!);

    response.statusCode = 200;
    response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    response.setHeader('Cache-Control', 'no-cache, no-store, no-transform');
    response.setHeader('Connection', 'keep-alive');
    response.setHeader('X-Accel-Buffering', 'no');
    response.flushHeaders();
    response.socket?.setNoDelay(true);
    response.socket?.setTimeout(0);
    response.write('retry: 5000\n: connected\n\n');

    const stream: Stream = {
      userId,
      response,
      stillValid,
      heartbeat: setInterval(() => void this.beat(stream), this.heartbeatMs),
    };
    stream.heartbeat.unref();
    set.add(stream);
    response.on('close', () => this.forget(stream));
  }

  private async beat(stream: Stream): Promise<void> {
    let valid = true;
    try {
      valid = await stream.stillValid();
    } catch {
      // The database hiccuped: keep the stream, check again next time.
    }
    if (!valid) {
      this.write(stream, 'session', { expired: true });
      this.close(stream);
      return;
    }
    if (!stream.response.writableEnded) stream.response.write(': heartbeat\n\n');
  }

  private async notify(envelope: Envelope, executor: Executor): Promise<void> {
    await this.notifyAll([envelope], executor);
  }

  /** All the envelopes in one `select pg_notify(...), pg_notify(...)` (one round trip); sent on commit. */
  private async notifyAll(envelopes: Envelope[], executor: Executor): Promise<void> {
    await executor.execute(notifySelect(envelopes));
  }

  /** A NOTIFY payload: one envelope (`publish`) or an array of them (`announce`). */
  private dispatch(payload: string): void {
    let envelopes: Envelope[];
    try {
      envelopes = unpackAnnouncements(payload) as Envelope[];
    } catch {
      this.logger.warn('Ignored a malformed live event');
      return;
    }
    for (const envelope of envelopes) {
      if (envelope.u === '*') {
        for (const set of this.streams.values()) for (const stream of set) this.write(stream, envelope.e, envelope.d);
        continue;
      }
      for (const stream of this.streams.get(envelope.u) ?? []) this.write(stream, envelope.e, envelope.d);
    }
  }

  private write(stream: Stream, event: string, data: unknown): void {
    if (stream.response.writableEnded || stream.response.destroyed) return;
    stream.response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  private close(stream: Stream): void {
    this.forget(stream);
    if (!stream.response.writableEnded) stream.response.end();
  }

  private forget(stream: Stream): void {
    clearInterval(stream.heartbeat);
    const set = this.streams.get(stream.userId);
    if (!set) return;
    set.delete(stream);
    if (set.size === 0) this.streams.delete(stream.userId);
  }
}

/** The NOTIFY payload of an envelope, kept under the size PostgreSQL accepts. */
function payloadOf(envelope: Envelope): string {
  let payload = JSON.stringify(envelope);
  if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
    // Too big for NOTIFY: send the event without its long text; clients refetch on every event anyway.
    const data = (envelope.d && typeof envelope.d === 'object' ? { ...(envelope.d as Record<string, unknown>) } : {}) as Record<string, unknown>;
    if (typeof data.message === 'string') data.message = `${data.message.slice(0, 500)}…`;
    payload = JSON.stringify({ ...envelope, d: data });
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) payload = JSON.stringify({ ...envelope, d: { truncated: true } });
  }
  return payload;
}

function notifySelect(envelopes: Envelope[]): SQL {
  const calls = envelopes.map((envelope) => sql`pg_notify(${LIVE_CHANNEL}, ${payloadOf(envelope)})`);
  return sql`select ${sql.join(calls, sql`, `)}`;
}
