import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { WalletRoutes, API_PREFIX } from '@coinpurse/contract';
import type { DatabaseHandle } from '../../db/database';
import { DATABASE_HANDLE } from '../../db/database.module';
import { LedgerService } from '../ledger/ledger.service';
import { LiveEventsService } from '../notifications/live-events.service';
import { registerEventLoopDelayGauges } from './event-loop-metrics';

/** Money routes (method + route pattern) and the kind of operation each one is. */
const MONEY_ROUTES: Record<string, string> = {
  [`POST /${API_PREFIX}/${WalletRoutes.sendCrypto}`]: 'send',
  [`POST /${API_PREFIX}/${WalletRoutes.swap}`]: 'swap',
  [`POST /${API_PREFIX}/${WalletRoutes.deposit}`]: 'deposit',
  [`POST /${API_PREFIX}/${WalletRoutes.updateBalance}`]: 'balance_adjustment',
  [`POST /${API_PREFIX}/${WalletRoutes.modifyTransaction}`]: 'transaction_status',
  [`DELETE /${API_PREFIX}/${WalletRoutes.deleteTrx}`]: 'void',
};

/** Expensive figures are computed at scrape time at most this often (a scrape every 15 s must stay cheap). */
const LIABILITIES_TTL_MS = 30_000;
const LEDGER_CHECK_TTL_MS = 5 * 60_000;

/** Caches an async figure: computed on first use, then at most once per `ttlMs`; a failure keeps the last value. */
export function cached<T>(ttlMs: number, compute: () => Promise<T>): () => Promise<T | undefined> {
  let value: T | undefined;
  let at = 0;
  let running: Promise<T | undefined> | undefined;
  return () => {
    if (Date.now() - at < ttlMs) return Promise.resolve(value);
    running ??= compute()
      .then((result) => {
        value = result;
        at = Date.now();
        return result;
      })
      .catch(() => value)
      .finally(() => {
        running = undefined;
      });
    return running;
  };
}

/**
 * The Prometheus registry of one app instance (its own registry, so several apps in one process never clash).
 * Counters are fed from the edges (the HTTP middleware sees statuses, replays and 429s); gauges that need the database
 * are read at scrape time and cached. A feature module registers its own series on `registry` (e.g. MarketMetrics).
 */
@Injectable()
export class MetricsService implements OnModuleInit, OnModuleDestroy {
  readonly registry = new Registry();
  private stopEventLoopSampling?: () => void;

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly moneyOperations = new Counter({
    name: 'coinpurse_money_operations_total',
    help: 'Money operations by kind (send, swap, deposit, balance_adjustment, transaction_status, void) and outcome (ok, replayed, rejected, failed)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly idempotentReplays = new Counter({
    name: 'coinpurse_idempotent_replays_total',
    help: 'Responses replayed for a repeated Idempotency-Key, by route',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'coinpurse_rate_limited_requests_total',
    help: 'Requests answered 429 Too Many Requests, by route',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  constructor(
    @Inject(DATABASE_HANDLE) private readonly database: DatabaseHandle,
    private readonly ledger: LedgerService,
    private readonly live: LiveEventsService,
  ) {}

  onModuleInit(): void {
    // process_*, nodejs_eventloop_lag_seconds (and percentiles), heap, GC, handles.
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
    // Its event-loop delay statistics read NaN on an empty window (scrapes under 20 ms apart): replaced.
    this.stopEventLoopSampling = registerEventLoopDelayGauges(this.registry, 20);
    this.registerScrapeTimeGauges();
  }

  onModuleDestroy(): void {
    this.stopEventLoopSampling?.();
    this.registry.clear();
  }

  /** Called once per finished response, by the HTTP metrics hook. */
  recordResponse(method: string, route: string, status: number, seconds: number, replayed: boolean): void {
    const statusLabel = String(status);
    this.httpDuration.observe({ method, route, status: statusLabel }, seconds);
    if (status === 429) this.rateLimited.inc({ route });
    if (replayed) this.idempotentReplays.inc({ route });
    const kind = MONEY_ROUTES[`${method} ${route}`];
    if (kind) {
      const outcome = replayed ? 'replayed' : status < 400 ? 'ok' : status < 500 ? 'rejected' : 'failed';
      this.moneyOperations.inc({ kind, outcome });
    }
  }

  metrics(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private registerScrapeTimeGauges(): void {
    const registers = [this.registry];
    const pool = poolOf(this.database);
    new Gauge({
      name: 'coinpurse_db_pool_connections',
      help: 'PostgreSQL pool connections by state (in_use, idle, waiting = queued requests for a connection); absent on PGlite',
      labelNames: ['state'] as const,
      registers,
      collect() {
        if (!pool) return;
        this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });

    const live = this.live;
    new Gauge({
      name: 'coinpurse_live_event_streams',
      help: 'Open live-event (SSE) streams on this instance',
      registers,
      collect() {
        this.set(live.openStreams());
      },
    });

    const liabilities = cached(LIABILITIES_TTL_MS, () => this.ledger.liabilities());
    new Gauge({
      name: 'coinpurse_liabilities',
      help: 'What the platform owes per token, in token units: customer balances and withdrawals pending (refreshed at most every 30 s; floating point, for alerting only)',
      labelNames: ['token', 'kind'] as const,
      registers,
      async collect() {
        this.reset();
        for (const row of (await liabilities()) ?? []) {
          this.set({ token: row.token, kind: 'customer' }, Number(row.customer));
          this.set({ token: row.token, kind: 'withdrawals_pending' }, Number(row.pending));
        }
      },
    });

    const ledgerCheck = cached(LEDGER_CHECK_TTL_MS, () => this.ledger.check());
    new Gauge({
      name: 'coinpurse_ledger_check_ok',
      help: '1 when every token journal sums to zero and every balance equals its lines, else 0 (checked at most every 5 minutes)',
      registers,
      async collect() {
        const result = await ledgerCheck();
        if (result) this.set(result.ok ? 1 : 0);
      },
    });
    new Gauge({
      name: 'coinpurse_ledger_check_timestamp_seconds',
      help: 'When the ledger check reported by coinpurse_ledger_check_ok ran (Unix time)',
      registers,
      async collect() {
        const result = await ledgerCheck();
        if (result) this.set(Date.parse(result.checkedAt) / 1000);
      },
    });
  }
}

interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** node-postgres' Pool behind Drizzle (`db.$client`); PGlite has none. */
function poolOf(database: DatabaseHandle): PoolStats | undefined {
  const client = (database.db as unknown as { $client?: Partial<PoolStats> }).$client;
  return client && typeof client.waitingCount === 'number' ? (client as PoolStats) : undefined;
}
