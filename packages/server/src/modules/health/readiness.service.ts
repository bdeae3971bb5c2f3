import { Inject, Injectable } from '@nestjs/common';
import { type HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { sql } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import type { DatabaseHandle } from '../../db/database';
import { DATABASE_HANDLE } from '../../db/database.module';
import { CoinsRepository } from '../market/coins.repository';

/** A probe that cannot answer within this time counts as down: a load balancer must not wait on a hung pool. */
const PROBE_TIMEOUT_MS = 3_000;

/** The health indicators of the readiness probe (terminus). */
@Injectable()
export class ReadinessService {
  /** The newest migration this build ships (`when` of the last journal entry), read once. */
  private readonly latestMigration: number;

  constructor(
    private readonly indicators: HealthIndicatorService,
    @Inject(DATABASE_HANDLE) private readonly handle: DatabaseHandle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly coins: CoinsRepository,
  ) {
    const journal = JSON.parse(readFileSync(join(config.migrationsDir, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ when: number }> };
    this.latestMigration = Math.max(0, ...journal.entries.map((entry) => entry.when));
  }

  /** Up when the database answers and has every migration of this build applied. */
  async database(): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check('database');
    try {
      const result = await withTimeout(
        this.handle.db.execute<{ applied: string | null }>(sql`select max(created_at)::text as applied from drizzle.__drizzle_migrations`),
        PROBE_TIMEOUT_MS,
      );
      const rows = (Array.isArray(result) ? result : (result as { rows: Array<{ applied: string | null }> }).rows) ?? [];
      const applied = Number(rows[0]?.applied ?? 0);
      if (applied < this.latestMigration) return indicator.down({ driver: this.handle.driver, message: 'Migrations are not all applied.' });
      return indicator.up({ driver: this.handle.driver });
    } catch (error) {
      return indicator.down({ driver: this.handle.driver, message: `The database is not reachable: ${(error as Error).message}` });
    }
  }

  /** The age of the newest price, reported but never failing: stale prices block money operations, not the whole app. */
  async prices(): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check('prices');
    try {
      const summary = await withTimeout(this.coins.marketSummary(), PROBE_TIMEOUT_MS);
      const current = summary.find((entry) => entry.source === 'live' && entry.count > 0) ?? summary.find((entry) => entry.source === 'snapshot');
      const ageSeconds = current?.newest ? Math.max(0, Math.round((Date.now() - current.newest.getTime()) / 1000)) : null;
      return indicator.up({
        source: current?.source ?? null,
        ageSeconds,
        stale: ageSeconds === null || ageSeconds > this.config.priceMaxAgeSeconds,
      });
    } catch {
      return indicator.up({ source: null, ageSeconds: null, stale: true });
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
