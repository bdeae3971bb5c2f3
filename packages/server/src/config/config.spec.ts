import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseDuration } from './config';

describe('loadConfig', () => {
  it('applies defaults', () => {
    const config = loadConfig({ DATA_DIR: ':memory:' });
    expect(config).toMatchObject({
      port: 3000,
      jwtTtlSeconds: 86400,
      authRateLimitPerMinute: 10,
      marketRefreshSeconds: 60,
      priceMaxAgeSeconds: 600,
      databaseUrl: undefined,
    });
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
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
