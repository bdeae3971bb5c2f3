import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.factory';
import { type AppConfig, loadConfig } from '../../src/config/config';
import { inject } from 'vitest';
import { createPostgresDatabase } from './databases';
import type { DestinationStream } from 'pino';

export const ADMIN_EMAIL = 'admin@test.local';
export const ADMIN_PASSWORD = 'admin-password-123';

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  http: TestAgent;
  /** Base URL when started with `listen: true` (browser tests, SSE). */
  url?: string;
  close(): Promise<void>;
}

export interface StartTestAppOptions {
  listen?: boolean;
  /**
   * A second instance on the database of an app already started on PostgreSQL (same DATABASE_URL and JWT secret,
   * its own DATA_DIR). Closing it leaves the database to the first app.
   */
  shareDatabaseWith?: TestApp;
  /** Use this DATA_DIR (e.g. prepared with files) instead of a fresh temp dir; it is left in place on close. */
  dataDir?: string;
  /** Capture the app's log lines (JSON) here instead of staying quiet. */
  logDestination?: DestinationStream;
}

/**
 * Boots the real Nest app on a fresh database: PGlite in a temp dir, or a new PostgreSQL database.
 * `env` overrides configuration (e.g. JWT_TTL, AUTH_RATE_LIMIT_PER_MINUTE, COINGECKO_BASE_URL).
 */
export async function startTestApp(kind: 'pglite' | 'postgres', env: Record<string, string> = {}, options: StartTestAppOptions = {}): Promise<TestApp> {
  const shared = options.shareDatabaseWith;
  if (shared && (kind !== 'postgres' || !shared.config.databaseUrl)) throw new Error('Only PostgreSQL databases can be shared by two apps');
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'coinpurse-test-'));
  const postgres = kind === 'postgres' && !shared ? await createPostgresDatabase({ template: inject('postgresTemplate') }) : undefined;
  const databaseUrl = shared?.config.databaseUrl ?? postgres?.url;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    MARKET_REFRESH_SECONDS: '0',
    COINGECKO_BASE_URL: 'http://127.0.0.1:9',
    // Four-eyes approval is off unless a test turns it on (APPROVAL_THRESHOLD_USD in env).
    APPROVAL_THRESHOLD_USD: '0',
    // Travel-rule questions only where a test asks for them (TRAVEL_RULE_THRESHOLD_USD in env; travel-rule.test.ts).
    TRAVEL_RULE_THRESHOLD_USD: '100000000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(shared ? { JWT_SECRET: shared.config.jwtSecret } : {}),
    ...env,
  });
  // Quiet unless TEST_LOGS is set or the test captures the lines (then LOG_LEVEL, default info, applies).
  const app = await createApp(config, {
    logger: process.env.TEST_LOGS || options.logDestination ? undefined : ['error'],
    logDestination: options.logDestination,
  });
  let url: string | undefined;
  if (options.listen) {
    await app.listen(0, '127.0.0.1');
    const address = app.getHttpServer().address() as import('node:net').AddressInfo;
    url = `http://127.0.0.1:${address.port}`;
  }
  return {
    app,
    config,
    http: request(app.getHttpServer()),
    url,
    close: async () => {
      await app.close();
      await postgres?.drop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
/** A unique email per call, so tests never collide. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.com`;
}

/** Signs up a customer and returns the session (token, _id, ...). */
export async function signUp(http: TestAgent, overrides: Partial<{ name: string; email: string; password: string; country: string }> = {}) {
  const body = { name: 'Test User', email: uniqueEmail(), password: 'password-123', country: 'Germany', ...overrides };
  const response = await http.post('/api/user/create-user').send(body).expect(201);
  return { ...response.body, password: body.password } as {
    token: string;
    _id: string;
    name: string;
    email: string;
    country: string;
    role: 'user';
    password: string;
  };
}

export async function loginAdmin(http: TestAgent): Promise<{ token: string; _id: string }> {
  const response = await http.post('/api/admin/login-admin').send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }).expect(200);
  return response.body;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
