import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, packageRoot, parseDuration, parseTrustProxy, SERVER_ROOT } from './config';
import { ConfigError } from './settings';

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

describe('chain connections (CHAIN_<NETWORK>_*)', () => {
  // BIP84 account keys of the "abandon … about" test mnemonic: m/84'/0'/0' (zpub) and m/84'/1'/0' (tpub).
  const ZPUB = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
  const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';

  it('connects nothing by default, and a network with both URL and XPUB with the documented defaults', () => {
    expect(loadConfig({ DATA_DIR: ':memory:' }).chains).toEqual([]);
    const config = loadConfig({ DATA_DIR: ':memory:', CHAIN_BITCOIN_RPC_URL: 'http://rpc:secret@127.0.0.1:8332/', CHAIN_BITCOIN_XPUB: ZPUB });
    expect(config.chains).toEqual([
      {
        network: 'bitcoin',
        family: 'utxo',
        rpcUrl: 'http://rpc:secret@127.0.0.1:8332/',
        rpcUrlForLogs: 'http://127.0.0.1:8332',
        xpub: ZPUB,
        chain: 'mainnet',
        confirmations: 4,
        pollSeconds: 60,
        stuckMinutes: 60,
        dropAfterBlocks: 24,
        unminedDropAfterBlocks: 432,
      },
    ]);
    const bch = loadConfig({
      DATA_DIR: ':memory:',
      CHAIN_BITCOIN_CASH_RPC_URL: 'http://127.0.0.1:8432',
      CHAIN_BITCOIN_CASH_XPUB: ZPUB,
      CHAIN_LITECOIN_RPC_URL: 'http://127.0.0.1:19443',
      CHAIN_LITECOIN_XPUB: TPUB,
      CHAIN_LITECOIN_CHAIN: 'regtest',
      CHAIN_LITECOIN_CONFIRMATIONS: '3',
      CHAIN_LITECOIN_POLL_SECONDS: '1',
    });
    expect(bch.chains.map((c) => [c.network, c.chain, c.confirmations, c.pollSeconds])).toEqual([
      ['litecoin', 'regtest', 3, 1],
      ['bitcoin-cash', 'mainnet', 15, 60],
    ]);
    // A deposit orphaned before credit is dropped 6 × confirmations blocks later unless the network says otherwise.
    expect(bch.chains.map((c) => [c.network, c.dropAfterBlocks])).toEqual([
      ['litecoin', 18],
      ['bitcoin-cash', 90],
    ]);
    const dropAfter = loadConfig({
      DATA_DIR: ':memory:',
      CHAIN_LITECOIN_RPC_URL: 'http://127.0.0.1:19443',
      CHAIN_LITECOIN_XPUB: TPUB,
      CHAIN_LITECOIN_CHAIN: 'regtest',
      CHAIN_LITECOIN_DROP_AFTER_BLOCKS: '5',
    });
    expect(dropAfter.chains[0].dropAfterBlocks).toBe(5);
    expect(() =>
      loadConfig({
        DATA_DIR: ':memory:',
        CHAIN_LITECOIN_RPC_URL: 'http://127.0.0.1:19443',
        CHAIN_LITECOIN_XPUB: TPUB,
        CHAIN_LITECOIN_CHAIN: 'regtest',
        CHAIN_LITECOIN_DROP_AFTER_BLOCKS: '0',
      }),
    ).toThrow(ConfigError);
  });

  it('refuses half a connection, a bad URL, a key of the wrong chain, a private key and an unknown network — never echoing the URL', () => {
    try {
      loadConfig({
        DATA_DIR: ':memory:',
        CHAIN_ETHEREUM_RPC_URL: 'http://127.0.0.1:8545',
        CHAIN_BITCOIN_RPC_URL: 'ftp://user:hunter2@example.com',
        CHAIN_BITCOIN_XPUB: ZPUB,
        CHAIN_LITECOIN_RPC_URL: 'http://127.0.0.1:19443',
        CHAIN_LITECOIN_XPUB: ZPUB,
        CHAIN_LITECOIN_CHAIN: 'regtest',
        CHAIN_DOGECOIN_RPC_URL: 'http://127.0.0.1:22555',
        CHAIN_DOGECOIN_XPUB: 'xprv9s21ZrQH143K3GJpoapnV8SFfukcVBSfeCficPSGfubmSFDxo1kuHnLisriDvSnRRuL2Qrg5ggqHKNVpxR86QEC8w35uxmGoggxtQTPvfUu',
        CHAIN_DOGECOIN_CONFIRMATIONS: '0',
        CHAIN_TRON_RPC_URL: 'http://127.0.0.1:8090',
      });
      expect.unreachable();
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toContain('CHAIN_ETHEREUM_RPC_URL and CHAIN_ETHEREUM_XPUB must be set together');
      expect(problems).toContain('CHAIN_BITCOIN_RPC_URL must be an http or https URL');
      expect(problems).toContain('CHAIN_LITECOIN_XPUB is a zpub key, which is not for litecoin regtest');
      expect(problems).toContain('CHAIN_DOGECOIN_XPUB is a private key');
      expect(problems).toContain('CHAIN_DOGECOIN_CONFIRMATIONS must be a whole number');
      expect(problems).toContain('CHAIN_TRON_RPC_URL: no such network');
      expect(problems).not.toContain('hunter2');
    }
  });
});
