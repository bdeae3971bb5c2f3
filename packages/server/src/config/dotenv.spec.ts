import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { loadDotEnv } from './settings';

const NAMES = ['PORT', 'COINPURSE_DOTENV_ONLY', 'LOG_LEVEL'];

describe('loadDotEnv', () => {
  const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
  const dirs: string[] = [];
  afterEach(() => {
    for (const name of NAMES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const dirWith = (content?: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'coinpurse-dotenv-'));
    dirs.push(dir);
    if (content !== undefined) writeFileSync(join(dir, '.env'), content);
    return dir;
  };

  it('reads .env from the given directory into process.env, so the configuration sees it', () => {
    delete process.env.PORT;
    delete process.env.COINPURSE_DOTENV_ONLY;
    const dir = dirWith('# comment\nPORT=3999\nCOINPURSE_DOTENV_ONLY="from file"\n');
    expect(loadDotEnv(dir)).toBe(join(dir, '.env'));
    expect(process.env.COINPURSE_DOTENV_ONLY).toBe('from file');
    expect(loadConfig({ ...process.env, NODE_ENV: 'test', DATA_DIR: ':memory:' }).port).toBe(3999);
  });

  it('lets variables already in the environment win over the file', () => {
    process.env.PORT = '4100';
    process.env.LOG_LEVEL = 'warn';
    const dir = dirWith('PORT=3999\nLOG_LEVEL=debug\n');
    loadDotEnv(dir);
    expect(process.env.PORT).toBe('4100');
    expect(loadConfig({ ...process.env, NODE_ENV: 'test', DATA_DIR: ':memory:' })).toMatchObject({ port: 4100, logLevel: 'warn' });
  });

  it('does nothing without a .env file', () => {
    expect(loadDotEnv(dirWith())).toBeUndefined();
  });
});

describe('logging and metrics configuration', () => {
  const base = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: 'e1'.repeat(32), DATA_DIR: ':memory:' };
  it('logs JSON at info in production by default', () => {
    expect(loadConfig(base)).toMatchObject({ logFormat: 'json', logLevel: 'info', metricsToken: undefined });
  });
  it('refuses unknown levels and formats and a short metrics token', () => {
    expect(() => loadConfig({ ...base, LOG_LEVEL: 'loud', LOG_FORMAT: 'xml', METRICS_TOKEN: 'short' })).toThrow(
      /LOG_LEVEL must be one of[\s\S]*LOG_FORMAT must be json or pretty[\s\S]*METRICS_TOKEN must be at least 16/,
    );
  });
});
