import { Inject, Injectable } from '@nestjs/common';
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { rowsOf } from '../../db/rows';
import { coins, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema';
import type { WebhookAttemptResult } from './webhook-sender';

export type WebhookEndpointRecord = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRecord = typeof webhookDeliveries.$inferSelect;
export type WebhookAttemptRecord = typeof webhookAttempts.$inferSelect;

/** A delivery claimed by the job, with what sending it needs of its endpoint. */
export interface ClaimedDelivery {
  id: number;
  endpointId: string;
  eventId: string;
  eventType: string;
  sourceKind: string;
  source: Record<string, unknown>;
  body: string | null;
  tries: number;
  createdAt: Date;
  url: string;
  userId: string;
  ownerRole: 'user' | 'admin';
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretUntil: Date | null;
}

/** What became of one try: delivered, retried after `retryInMs`, or failed for good (the endpoint is disabled). */
export type AttemptOutcome = { kind: 'delivered' } | { kind: 'retry'; retryInMs: number } | { kind: 'failed' };

/** All SQL of webhook endpoints, their deliveries (the outbox the triggers of migration 0027 write) and attempts. */
@Injectable()
export class WebhooksRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async insertEndpoint(
    endpoint: { id: string; userId: string; ownerRole: 'user' | 'admin'; url: string; description: string | null; events: string[]; secretSealed: string },
    executor: Executor = this.db,
  ): Promise<WebhookEndpointRecord> {
    const [row] = await executor.insert(webhookEndpoints).values(endpoint).returning();
    return row;
  }

  listEndpoints(userId: string, executor: Executor = this.db): Promise<WebhookEndpointRecord[]> {
    return executor.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId)).orderBy(desc(webhookEndpoints.createdAt));
  }

  async findEndpoint(userId: string, id: string, executor: Executor = this.db): Promise<WebhookEndpointRecord | undefined> {
    const [row] = await executor
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)));
    return row;
  }

  /** Pending deliveries per endpoint of these ids. */
  async pendingCounts(ids: string[], executor: Executor = this.db): Promise<Map<string, number>> {
    if (!ids.length) return new Map();
    const rows = await executor
      .select({ endpointId: webhookDeliveries.endpointId, n: sql<number>`count(*)::int` })
      .from(webhookDeliveries)
      .where(and(inArray(webhookDeliveries.endpointId, ids), eq(webhookDeliveries.state, 'pending')))
      .groupBy(webhookDeliveries.endpointId);
    return new Map(rows.map((row) => [row.endpointId, Number(row.n)]));
  }

  async updateEndpoint(
    id: string,
    change: Partial<
      Pick<
        WebhookEndpointRecord,
        'url' | 'events' | 'description' | 'enabled' | 'disabledReason' | 'disabledAt' | 'secretSealed' | 'previousSecretSealed' | 'previousSecretUntil'
      >
    >,
    executor: Executor = this.db,
  ): Promise<WebhookEndpointRecord> {
    const [row] = await executor
      .update(webhookEndpoints)
      .set({ ...change, updatedAt: new Date() })
      .where(eq(webhookEndpoints.id, id))
      .returning();
    return row;
  }

  async deleteEndpoint(id: string, executor: Executor = this.db): Promise<void> {
    await executor.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  }

  /** Disables an enabled endpoint (after a delivery's last try); false when it was disabled or deleted meanwhile. */
  async disableEndpoint(id: string, reason: string, executor: Executor): Promise<boolean> {
    const rows = await executor
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: reason, disabledAt: new Date(), updatedAt: new Date() })
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.enabled, true)))
      .returning({ id: webhookEndpoints.id });
    return rows.length > 0;
  }

  /** The endpoint's deliveries, newest first, keyset on id. */
  listDeliveries(endpointId: string, page: { beforeId?: number; limit: number }, executor: Executor = this.db): Promise<WebhookDeliveryRecord[]> {
    const conditions = [eq(webhookDeliveries.endpointId, endpointId)];
    if (page.beforeId !== undefined) conditions.push(lt(webhookDeliveries.id, page.beforeId));
    return executor
      .select()
      .from(webhookDeliveries)
      .where(and(...conditions))
      .orderBy(desc(webhookDeliveries.id))
      .limit(page.limit);
  }

  async attemptsOf(deliveryIds: number[], executor: Executor = this.db): Promise<WebhookAttemptRecord[]> {
    if (!deliveryIds.length) return [];
    return executor.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, deliveryIds)).orderBy(webhookAttempts.id);
  }

  /** Queues a delivered or failed delivery again as it was (same event id and body), as a new round of tries. */
  async requeue(endpointId: string, deliveryId: number, executor: Executor = this.db): Promise<'queued' | 'pending' | 'missing'> {
    const rows = await executor
      .update(webhookDeliveries)
      .set({ state: 'pending', tries: 0, nextAttemptAt: new Date(), leasedUntil: null, updatedAt: new Date() })
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId), sql`${webhookDeliveries.state} <> 'pending'`))
      .returning({ id: webhookDeliveries.id });
    if (rows.length) return 'queued';
    const [existing] = await executor
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)));
    return existing ? 'pending' : 'missing';
  }

  /** A delivery written by the app itself (the test event), body rendered already. */
  async insertDelivery(
    delivery: { endpointId: string; eventId: string; eventType: string; sourceKind: string; source: Record<string, unknown>; body: string },
    executor: Executor = this.db,
  ): Promise<WebhookDeliveryRecord> {
    const [row] = await executor.insert(webhookDeliveries).values(delivery).returning();
    return row;
  }

  /**
   * Leases the next delivery of up to `limit` endpoints: per enabled endpoint only its oldest pending delivery (the
   * order per endpoint), and only when that one is due and not leased by a sender already. Under the job's lock.
   */
  async claimDue(leaseMs: number, limit: number, executor: Executor): Promise<ClaimedDelivery[]> {
    const result = await executor.execute(sql`
      with heads as (
        select distinct on (d.endpoint_id) d.id, d.endpoint_id, d.next_attempt_at, d.leased_until
        from webhook_deliveries d where d.state = 'pending'
        order by d.endpoint_id, d.id
      ), due as (
        select h.id from heads h join webhook_endpoints e on e.id = h.endpoint_id
        where e.enabled and h.next_attempt_at <= now() and (h.leased_until is null or h.leased_until <= now())
        order by h.next_attempt_at, h.id limit ${limit}
      )
      update webhook_deliveries d set leased_until = now() + (${leaseMs}::bigint * interval '1 millisecond'), updated_at = now()
      from due, webhook_endpoints e
      where d.id = due.id and e.id = d.endpoint_id
      returning d.id, d.endpoint_id as "endpointId", d.event_id as "eventId", d.event_type as "eventType", d.source_kind as "sourceKind",
        d.source, d.body, d.tries, d.created_at as "createdAt", e.url, e.user_id as "userId", e.owner_role as "ownerRole",
        e.secret_sealed as "secretSealed", e.previous_secret_sealed as "previousSecretSealed", e.previous_secret_until as "previousSecretUntil"`);
    return (rowsOf(result) as Array<Record<string, unknown>>).map((row) => ({
      ...(row as unknown as ClaimedDelivery),
      id: Number(row.id),
      tries: Number(row.tries),
      source: (typeof row.source === 'string' ? JSON.parse(row.source) : row.source) as Record<string, unknown>,
      createdAt: new Date(row.createdAt as string),
      previousSecretUntil: row.previousSecretUntil ? new Date(row.previousSecretUntil as string) : null,
    }));
  }

  /** Keeps the rendered body: every later try and resend sends these bytes. */
  async saveBody(id: number, body: string, executor: Executor = this.db): Promise<void> {
    await executor.update(webhookDeliveries).set({ body }).where(eq(webhookDeliveries.id, id));
  }

  /** Records one try and what it makes of the delivery (in the caller's transaction). */
  async recordAttempt(id: number, result: WebhookAttemptResult, outcome: AttemptOutcome, executor: Executor): Promise<void> {
    await executor.insert(webhookAttempts).values({
      deliveryId: id,
      status: result.status,
      error: result.error,
      responseBody: result.responseBody,
      durationMs: result.durationMs,
    });
    const common = { tries: sql`${webhookDeliveries.tries} + 1`, leasedUntil: null, lastStatus: result.status, lastError: result.error, updatedAt: new Date() };
    const change =
      outcome.kind === 'delivered'
        ? { ...common, state: 'delivered' as const, deliveredAt: new Date() }
        : outcome.kind === 'failed'
          ? { ...common, state: 'failed' as const }
          : { ...common, nextAttemptAt: sql`now() + (${outcome.retryInMs}::bigint * interval '1 millisecond')` };
    await executor.update(webhookDeliveries).set(change).where(eq(webhookDeliveries.id, id));
  }

  /** Milliseconds until a pending delivery of an enabled endpoint is due (0: now), or undefined when none is. */
  async nextDueInMs(executor: Executor = this.db): Promise<number | undefined> {
    // No greatest(0, …) around the min: greatest ignores a NULL, and no pending delivery would read as "due now".
    const result = await executor.execute(sql`
      select ceil(extract(epoch from (min(greatest(d.next_attempt_at, coalesce(d.leased_until, d.next_attempt_at))) - now())) * 1000)::bigint as due_ms
      from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
      where d.state = 'pending' and e.enabled`);
    const value = (rowsOf(result)[0] as { due_ms: string | number | null } | undefined)?.due_ms;
    return value === null || value === undefined ? undefined : Math.max(0, Number(value));
  }

  /** Deletes deliveries (and their attempts) finished more than `olderThanMs` ago. */
  async purgeFinished(olderThanMs: number, executor: Executor = this.db): Promise<number> {
    const result = await executor.execute(
      sql`delete from webhook_deliveries where state <> 'pending' and updated_at < now() - (${olderThanMs}::bigint * interval '1 millisecond') returning 1`,
    );
    return rowsOf(result).length;
  }

  /** Coin symbols by id. */
  async symbolsOf(ids: string[], executor: Executor = this.db): Promise<Map<string, { symbol: string }>> {
    if (!ids.length) return new Map();
    const rows = await executor.select({ id: coins.id, symbol: coins.symbol }).from(coins).where(inArray(coins.id, ids));
    return new Map(rows.map((row) => [row.id, { symbol: row.symbol }]));
  }

  /** What the body of a History row needs besides the row: its customer's name and email, its coin's symbol. */
  async transactionContext(
    userId: string,
    token: string,
    executor: Executor = this.db,
  ): Promise<{ userName: string; userEmail: string; symbol: string | null }> {
    const result = await executor.execute(
      sql`select u.name as "userName", u.email as "userEmail", (select c.symbol from coins c where c.id = ${token}) as symbol from users u where u.id = ${userId}`,
    );
    const row = rowsOf(result)[0] as { userName: string; userEmail: string; symbol: string | null } | undefined;
    return row ?? { userName: '', userEmail: '', symbol: null };
  }

  /** A coin's symbol and name (what a deposit's body names it by); undefined for a coin no longer listed. */
  async coinNames(token: string, executor: Executor = this.db): Promise<{ symbol: string; name: string } | undefined> {
    const result = await executor.execute(sql`select symbol, name from coins where id = ${token}`);
    return rowsOf(result)[0] as { symbol: string; name: string } | undefined;
  }
}
