import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig, packageRoot, parseDuration, parseTrustProxy, SERVER_ROOT } from './config';

describe('SERVER_ROOT', () => {
  it('is the server package from src/, from tsc output folders and from the bundle in dist/', () => {
    expect(JSON.parse(readFileSync(join(SERVER_ROOT, 'package.json'), 'utf8')).name).toBe('@coinpurse/server');
    for (const codeDir of ['dist', join('dist', 'config'), join('src', 'config')]) expect(packageRoot(join(SERVER_ROOT, codeDir))).toBe(SERVER_ROOT);
    expect(loadConfig({ DATA_DIR: ':memory:' }).migrationsDir).toBe(join(SERVER_ROOT, 'drizzle'));
  });
});

describe('loadConfig', () => {
  it('applies defaults', () => {
    const config = loadConfig({ DATA_DIR: ':memory:' });
    expect(config).toMatchObject({
      port: 3000,
      jwtTtlSeconds: 86400,
      authRateLimitPerMinute: 10,
      moneyCallsPerCustomer: 2,
      marketRefreshSeconds: 60,
      priceMaxAgeSeconds: 600,
      databaseUrl: undefined,
    });
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('reads the PostgreSQL session timeouts (defaults 5 s, 2 s, 10 s) and honours the claim-pause hook only in tests', () => {
    expect(loadConfig({ DATA_DIR: ':memory:' }).databaseTimeouts).toEqual({ statementMs: 5000, lockMs: 2000, idleInTransactionMs: 10_000, connectMs: 10_000 });
    const custom = loadConfig({
      DATA_DIR: ':memory:',
      DB_STATEMENT_TIMEOUT_MS: '0',
      DB_LOCK_TIMEOUT_MS: '500',
      DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: '60000',
      DB_CONNECT_TIMEOUT_MS: '1000',
    });
    expect(custom.databaseTimeouts).toEqual({ statementMs: 0, lockMs: 500, idleInTransactionMs: 60_000, connectMs: 1000 });
    expect(() => loadConfig({ DATA_DIR: ':memory:', DB_LOCK_TIMEOUT_MS: '2s' })).toThrow(/DB_LOCK_TIMEOUT_MS/);
    expect(loadConfig({ DATA_DIR: ':memory:', MONEY_CALLS_PER_CUSTOMER: '5' }).moneyCallsPerCustomer).toBe(5);
    expect(() => loadConfig({ DATA_DIR: ':memory:', MONEY_CALLS_PER_CUSTOMER: '0' })).toThrow(/MONEY_CALLS_PER_CUSTOMER/);
    expect(loadConfig({ DATA_DIR: ':memory:', NODE_ENV: 'test', TEST_PAUSE_AFTER_IDEMPOTENCY_CLAIM_MS: '100' }).testPauseAfterIdempotencyClaimMs).toBe(100);
    expect(loadConfig({ DATA_DIR: ':memory:', TEST_PAUSE_AFTER_IDEMPOTENCY_CLAIM_MS: '100' }).testPauseAfterIdempotencyClaimMs).toBe(0);
  });

  it('lists every bad variable at once', () => {
    try {
      loadConfig({ PORT: 'abc', JWT_TTL: 'forever', DATABASE_URL: 'mysql://x', NODE_ENV: 'production', ADMIN_EMAIL: 'a@b.co' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toContain('PORT');
      expect(problems).toContain('JWT_TTL');
      expect(problems).toContain('DATABASE_URL');
      expect(problems).toContain('JWT_SECRET is required');
      expect(problems).toContain('ADMIN_EMAIL and ADMIN_PASSWORD');
      expect(problems).toContain('ENCRYPTION_KEY is required');
    }
  });

  it('reads the encryption key and the admin two-factor rule', () => {
    const key = 'ab'.repeat(32);
    const config = loadConfig({ DATA_DIR: ':memory:', ENCRYPTION_KEY: key, ADMIN_REQUIRE_2FA: 'true' });
    expect(config.encryptionKey.toString('hex')).toBe(key);
    expect(config.adminRequire2fa).toBe(true);
    expect(loadConfig({ DATA_DIR: ':memory:' })).toMatchObject({ adminRequire2fa: false });
    expect(loadConfig({ DATA_DIR: ':memory:' }).encryptionKey.length).toBe(32);
    expect(() => loadConfig({ DATA_DIR: ':memory:', ENCRYPTION_KEY: 'short', ADMIN_REQUIRE_2FA: 'maybe' })).toThrow(/ENCRYPTION_KEY[\s\S]*ADMIN_REQUIRE_2FA/);
  });

  it('parses durations', () => {
    expect(parseDuration('90')).toBe(90);
    expect(parseDuration('15m')).toBe(900);
    expect(parseDuration('1d')).toBe(86400);
    expect(parseDuration('0')).toBeUndefined();
    expect(parseDuration('1y')).toBeUndefined();
  });
});

describe('parseTrustProxy', () => {
  const parse = (value: string | undefined) => {
    const problems: string[] = [];
    return { value: parseTrustProxy(value, problems), problems };
  };

  it('is off unless set', () => {
    for (const off of [undefined, '', 'false', 'off', '0', ' OFF ']) expect(parse(off)).toEqual({ value: false, problems: [] });
    expect(loadConfig({ DATA_DIR: ':memory:' }).trustProxy).toBe(false);
  });

  it('takes a hop count or a list of addresses and CIDR ranges', () => {
    expect(parse('1')).toEqual({ value: 1, problems: [] });
    expect(parse('10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback')).toEqual({
      value: ['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', 'loopback'],
      problems: [],
    });
  });

  it('refuses "true", bad ranges, names and too many hops', () => {
    for (const bad of ['true', '10.0.0.0/33', '::1/129', 'proxy.example.com', '10.0.0.0/8/1', '33', ',']) {
      const { value, problems } = parse(bad);
      expect(value, bad).toBe(false);
      expect(problems[0], bad).toMatch(/^TRUST_PROXY/);
    }
    expect(() => loadConfig({ DATA_DIR: ':memory:', TRUST_PROXY: 'everyone' })).toThrow(ConfigError);
  });
});
