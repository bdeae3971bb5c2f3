import { Inject, Injectable } from '@nestjs/common';
import {
  type CreatedWebhookDto,
  type CreateWebhookDto,
  CUSTOMER_WEBHOOK_EVENTS,
  MAX_WEBHOOKS,
  type PageQueryDto,
  type UpdateWebhookDto,
  WEBHOOK_TEST_EVENT,
  type WebhookDeliveryDto,
  type WebhookDto,
  type WebhookEventType,
  type WebhookSecretDto,
} from '@coinpurse/contract';
import { randomUUID } from 'node:crypto';
import { UUID_TEXT } from '../../common/page-cursor';
import { ConflictError, InvalidInputError, NotFoundError } from '../../common/errors';
import type { Actor, Principal } from '../../common/principal';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { DATABASE, type Database } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { parseLimit } from '../wallet/wallet-common';
import { WebhookBodies, wireEventId } from './webhook-bodies';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { PREVIOUS_SECRET_GRACE_MS, WebhookSecrets } from './webhook-secrets';
import { checkWebhookHost, parseWebhookUrl } from './webhook-url';
import { type WebhookAttemptRecord, type WebhookDeliveryRecord, type WebhookEndpointRecord, WebhooksRepository } from './webhooks.repository';

const NOT_FOUND = 'Webhook endpoint not found.';

/**
 * Webhook endpoints of the signed-in owner: a customer's receive their own account's events, an administrator's every
 * customer's and the back office's. The signing secret is shown at creation and at each rotation, never again.
 */
@Injectable()
export class WebhooksService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly webhooks: WebhooksRepository,
    private readonly secrets: WebhookSecrets,
    private readonly bodies: WebhookBodies,
    private readonly delivery: WebhookDeliveryService,
    private readonly audit: AuditService,
  ) {}

  async list(owner: Principal): Promise<WebhookDto[]> {
    const rows = await this.webhooks.listEndpoints(owner.id);
    const pending = await this.webhooks.pendingCounts(rows.map((row) => row.id));
    return rows.map((row) => toWebhookDto(row, pending.get(row.id) ?? 0));
  }

  async create(owner: Principal, actor: Actor, body: CreateWebhookDto): Promise<CreatedWebhookDto> {
    const url = await this.checkUrl(body.url);
    const events = this.checkEvents(owner, body.events);
    if ((await this.webhooks.listEndpoints(owner.id)).length >= MAX_WEBHOOKS) {
      throw new ConflictError(`You have ${MAX_WEBHOOKS} webhook endpoints, the most an account may have. Delete one first.`);
    }
    const id = randomUUID();
    const { secret, sealed } = this.secrets.create(id);
    return this.db.transaction(async (tx) => {
      const row = await this.webhooks.insertEndpoint(
        { id, userId: owner.id, ownerRole: owner.role, url, description: body.description || null, events, secretSealed: sealed },
        tx,
      );
      await this.audit.record(actor, { action: 'webhook.create', targetType: 'webhook', targetId: id, after: { url, events } }, tx);
      return { ...toWebhookDto(row, 0), secret };
    });
  }

  async update(owner: Principal, actor: Actor, id: string, body: UpdateWebhookDto): Promise<WebhookDto> {
    const endpoint = await this.find(owner, id);
    const change: Parameters<WebhooksRepository['updateEndpoint']>[1] = {};
    if (body.url !== undefined) change.url = await this.checkUrl(body.url);
    if (body.events !== undefined) change.events = this.checkEvents(owner, body.events);
    if (body.description !== undefined) change.description = body.description || null;
    if (body.enabled === true && !endpoint.enabled) Object.assign(change, { enabled: true, disabledReason: null, disabledAt: null });
    if (body.enabled === false && endpoint.enabled) Object.assign(change, { enabled: false, disabledReason: 'Paused by its owner.', disabledAt: new Date() });
    const row = await this.db.transaction(async (tx) => {
      const updated = await this.webhooks.updateEndpoint(endpoint.id, change, tx);
      const before = { url: endpoint.url, events: endpoint.events, enabled: endpoint.enabled };
      const after = { url: updated.url, events: updated.events, enabled: updated.enabled };
      await this.audit.record(actor, { action: 'webhook.update', targetType: 'webhook', targetId: endpoint.id, before, after }, tx);
      return updated;
    });
    if (row.enabled) this.delivery.kick();
    return toWebhookDto(row, (await this.webhooks.pendingCounts([row.id])).get(row.id) ?? 0);
  }

  async remove(owner: Principal, actor: Actor, id: string): Promise<void> {
    const endpoint = await this.find(owner, id);
    await this.db.transaction(async (tx) => {
      await this.webhooks.deleteEndpoint(endpoint.id, tx);
      await this.audit.record(actor, { action: 'webhook.delete', targetType: 'webhook', targetId: endpoint.id, before: { url: endpoint.url } }, tx);
    });
  }

  /** A new secret; the previous one keeps signing (a second signature) for PREVIOUS_SECRET_GRACE_MS. */
  async rotateSecret(owner: Principal, actor: Actor, id: string): Promise<WebhookSecretDto> {
    const endpoint = await this.find(owner, id);
    const { secret, sealed } = this.secrets.create(endpoint.id);
    const previousSecretUntil = new Date(Date.now() + PREVIOUS_SECRET_GRACE_MS);
    await this.db.transaction(async (tx) => {
      await this.webhooks.updateEndpoint(endpoint.id, { secretSealed: sealed, previousSecretSealed: endpoint.secretSealed, previousSecretUntil }, tx);
      await this.audit.record(actor, { action: 'webhook.rotate_secret', targetType: 'webhook', targetId: endpoint.id }, tx);
    });
    return { secret, previousSecretUntil: previousSecretUntil.toISOString() };
  }

  /** The endpoint's deliveries, newest first, each with every try; the next page's cursor. */
  async deliveries(owner: Principal, id: string, query: PageQueryDto): Promise<{ items: WebhookDeliveryDto[]; next?: string }> {
    const endpoint = await this.find(owner, id);
    const limit = parseLimit(query.limit);
    if (query.cursor !== undefined && query.cursor !== '' && !/^\d{1,15}$/.test(query.cursor)) throw new InvalidInputError('The cursor is not valid.');
    const beforeId = query.cursor ? Number(query.cursor) : undefined;
    const rows = await this.webhooks.listDeliveries(endpoint.id, { beforeId, limit });
    const attempts = await this.webhooks.attemptsOf(rows.map((row) => row.id));
    const items = rows.map((row) =>
      toDeliveryDto(
        row,
        attempts.filter((attempt) => attempt.deliveryId === row.id),
      ),
    );
    return { items, next: rows.length === limit ? String(rows[rows.length - 1].id) : undefined };
  }

  /** Sends a delivered or failed event again: the same event id and body, as a new round of tries. */
  async resend(owner: Principal, id: string, deliveryId: string): Promise<WebhookDeliveryDto> {
    const endpoint = await this.find(owner, id);
    if (!endpoint.enabled) throw new ConflictError('This endpoint is disabled: turn it on first.');
    if (!/^\d{1,15}$/.test(deliveryId)) throw new NotFoundError('Delivery not found.');
    const outcome = await this.webhooks.requeue(endpoint.id, Number(deliveryId));
    if (outcome === 'missing') throw new NotFoundError('Delivery not found.');
    if (outcome === 'pending') throw new ConflictError('This delivery is waiting to be sent already.');
    this.delivery.kick();
    return this.one(endpoint.id, Number(deliveryId));
  }

  /** Queues a `webhook.test` event to this endpoint (whatever events it takes). */
  async test(owner: Principal, id: string): Promise<WebhookDeliveryDto> {
    const endpoint = await this.find(owner, id);
    if (!endpoint.enabled) throw new ConflictError('This endpoint is disabled: turn it on first.');
    const eventId = randomUUID();
    const source = { endpointId: endpoint.id, message: 'A test event from Coinpurse: your receiver is reached and verifies our signature.' };
    const createdAt = new Date();
    const body = await this.bodies.render({ eventId, eventType: WEBHOOK_TEST_EVENT, sourceKind: 'test', source, createdAt });
    const row = await this.webhooks.insertDelivery({ endpointId: endpoint.id, eventId, eventType: WEBHOOK_TEST_EVENT, sourceKind: 'test', source, body });
    this.delivery.kick();
    return toDeliveryDto(row, []);
  }

  private async one(endpointId: string, deliveryId: number): Promise<WebhookDeliveryDto> {
    const [row] = await this.webhooks.listDeliveries(endpointId, { beforeId: deliveryId + 1, limit: 1 });
    return toDeliveryDto(row, await this.webhooks.attemptsOf([row.id]));
  }

  private async find(owner: Principal, id: string): Promise<WebhookEndpointRecord> {
    const endpoint = UUID_TEXT.test(id) ? await this.webhooks.findEndpoint(owner.id, id) : undefined;
    if (!endpoint) throw new NotFoundError(NOT_FOUND);
    return endpoint;
  }

  private async checkUrl(raw: string): Promise<string> {
    const allowPrivate = this.config.integrations.webhooks.allowPrivateNetworks;
    const url = parseWebhookUrl(raw, allowPrivate);
    await checkWebhookHost(url, allowPrivate);
    return url.toString();
  }

  private checkEvents(owner: Principal, events: WebhookEventType[]): WebhookEventType[] {
    if (owner.role === 'user') {
      const adminOnly = events.filter((event) => !(CUSTOMER_WEBHOOK_EVENTS as readonly string[]).includes(event));
      if (adminOnly.length) throw new InvalidInputError(`${adminOnly[0]} is an event of the back office, for administrators' endpoints.`);
    }
    return [...new Set(events)];
  }
}

export function toWebhookDto(row: WebhookEndpointRecord, pending: number): WebhookDto {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEventType[],
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    previousSecretUntil: row.previousSecretUntil && row.previousSecretUntil.getTime() > Date.now() ? row.previousSecretUntil.toISOString() : null,
    pending,
    createdAt: row.createdAt.toISOString(),
  };
}

function toDeliveryDto(row: WebhookDeliveryRecord, attempts: WebhookAttemptRecord[]): WebhookDeliveryDto {
  return {
    id: String(row.id),
    eventId: wireEventId(row.eventId),
    eventType: row.eventType,
    state: row.state,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    nextAttemptAt: row.state === 'pending' ? row.nextAttemptAt.toISOString() : null,
    body: row.body,
    attempts: attempts.map((attempt) => ({
      attemptedAt: attempt.attemptedAt.toISOString(),
      status: attempt.status,
      error: attempt.error,
      responseBody: attempt.responseBody,
      durationMs: attempt.durationMs,
    })),
  };
}
