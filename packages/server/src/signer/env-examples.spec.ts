import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHAIN_NETWORKS, isEvmNetwork } from '../config/chain-params';
import { loadConfig } from '../config/config';
import { chainEnvPrefix } from '../config/chain-settings';
import { API_ONLY_SETTINGS, SIGNER_ONLY_SETTINGS } from '../config/chain-settings';
import { loadSignerConfig } from './signer-config';
import { signerEnvFile } from './signer-env-file';

/**
 * Every variable a process reads is listed in the example env of that process (`.env.example`: the API,
 * `signer.env.example`: the signer), and an example lists nothing its process never reads. The reads are recorded
 * with an env Proxy while each configuration loads a representative environment that connects every network (so every
 * per-network key is read), with the signer, the cold side and sweeps configured. Per-network keys are compared as
 * `CHAIN_<NETWORK>_…` patterns. Variables a process reads only to refuse them (the API refuses the signer's keys and
 * fee ceiling, the signer the API's policy) must not be in its example.
 */
const ROOT = join(__dirname, '..', '..', '..', '..');
const PER_NETWORK = '<NETWORK>';

/** BIP84 account key m/84'/1'/0' of the "abandon … about" test mnemonic (accepted on every network's regtest). */
const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';
/** m/44'/60'/0' of the same mnemonic: the EVM networks' xpub, its xprv in the signer's key file. */
const EVM_ACCOUNT = HDKey.fromMasterSeed(
  mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'),
).derive("m/44'/60'/0'");
const COLD_ADDRESS = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

const keyDir = mkdtempSync(join(tmpdir(), 'coinpurse-env-examples-'));
afterAll(() => rmSync(keyDir, { recursive: true, force: true }));
const KEY_FILE = join(keyDir, 'hot.key');
writeFileSync(KEY_FILE, `0x${'ab'.repeat(32)}\n${EVM_ACCOUNT.privateExtendedKey}\n`);
chmodSync(KEY_FILE, 0o600);

/** `CHAIN_LITECOIN_RPC_URL` → `CHAIN_<NETWORK>_RPC_URL`; other names as they are. Longest prefix first (BITCOIN_CASH). */
const prefixes = CHAIN_NETWORKS.map(chainEnvPrefix).sort((a, b) => b.length - a.length);
function pattern(name: string): string {
  const prefix = prefixes.find((p) => name.startsWith(p));
  return prefix ? `CHAIN_${PER_NETWORK}_${name.slice(prefix.length)}` : name;
}

/** The names a loader reads from its env (property reads of string keys), as patterns. */
function readsOf(load: (env: NodeJS.ProcessEnv) => unknown, values: Record<string, string>): Set<string> {
  const read = new Set<string>();
  const env = new Proxy(values as NodeJS.ProcessEnv, {
    get(target, key) {
      if (typeof key === 'string') read.add(pattern(key));
      return Reflect.get(target, key);
    },
  });
  load(env);
  return read;
}

/** The variables an example file lists, active or commented out (`NAME=…` or `# NAME=…` at the start of a line), as patterns. */
function listedIn(file: string): Set<string> {
  const names = readFileSync(join(ROOT, file), 'utf8')
    .split(/\r?\n/)
    .map((line) => /^#?\s?([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
    .filter((name): name is string => Boolean(name));
  return new Set(names.map(pattern));
}

/** The API with every network connected, paying out through the signer, with its cold side and (EVM) sweeps. */
function apiEnv(nodeEnv: 'production' | 'test'): Record<string, string> {
  const env: Record<string, string> = {
    NODE_ENV: nodeEnv,
    DATA_DIR: ':memory:',
    DATABASE_URL: 'postgres://127.0.0.1:5432/coinpurse',
    JWT_SECRET: 'j'.repeat(32),
    ENCRYPTION_KEY: 'e1'.repeat(32),
    SIGNER_TOKEN: 't'.repeat(32),
  };
  for (const network of CHAIN_NETWORKS) {
    const prefix = chainEnvPrefix(network);
    Object.assign(env, {
      [`${prefix}RPC_URL`]: 'http://127.0.0.1:8545',
      [`${prefix}XPUB`]: TPUB,
      [`${prefix}CHAIN`]: 'regtest',
      [`${prefix}SIGNER_URL`]: 'http://127.0.0.1:3100',
      [`${prefix}COLD_ADDRESSES`]: isEvmNetwork(network) ? COLD_ADDRESS : 'rltc1qecsqwu5ye0zhqy98g5ydjhjpmwh3kps5hljm5v',
      [`${prefix}HOT_LIMIT`]: '1',
      [`${prefix}HOT_DAILY_LIMIT`]: '10',
      // Read by walking the env's names (any network may name an explorer), so only when given.
      [`${prefix}EXPLORER_URL`]: 'https://explorer.example/tx/{tx}',
      ...(isEvmNetwork(network) ? { [`${prefix}COLD_ADDRESS`]: COLD_ADDRESS, [`${prefix}SWEEP_MIN`]: '50' } : { [`${prefix}COLD_WALLET`]: 'cold-watch' }),
    });
  }
  return env;
}

/** The signer with a key on every network: the node wallet (UTXO) or the key file (EVM). */
function signerEnv(): Record<string, string> {
  const env: Record<string, string> = { SIGNER_TOKEN: 't'.repeat(32), DATABASE_URL: 'postgres://127.0.0.1:5432/coinpurse' };
  for (const network of CHAIN_NETWORKS) {
    const prefix = chainEnvPrefix(network);
    Object.assign(env, {
      [`${prefix}RPC_URL`]: 'http://127.0.0.1:8545',
      [`${prefix}CHAIN`]: 'regtest',
      ...(isEvmNetwork(network)
        ? { [`${prefix}XPUB`]: EVM_ACCOUNT.publicExtendedKey, [`${prefix}KEY_FILE`]: KEY_FILE }
        : { [`${prefix}XPUB`]: TPUB, [`${prefix}WALLET`]: 'hot' }),
    });
  }
  return env;
}

/** What the API reads only to refuse it: the signer's keys and fee ceiling ("a setting of the signer process"). */
const API_REFUSES = SIGNER_ONLY_SETTINGS.map((setting) => `CHAIN_${PER_NETWORK}_${setting}`);
/** What the signer reads only to refuse it: the API's per-network policy ("a setting of the API"). */
const SIGNER_REFUSES = API_ONLY_SETTINGS.map((setting) => `CHAIN_${PER_NETWORK}_${setting}`);

const sorted = (names: Iterable<string>) => [...names].sort();
const minus = (a: Set<string>, b: Set<string> | string[]) => sorted([...a].filter((name) => !new Set(b).has(name)));

describe('the example env files list every variable their process reads, and nothing else', () => {
  const apiReads = new Set([...readsOf(loadConfig, apiEnv('production')), ...readsOf(loadConfig, apiEnv('test'))]);
  const signerReads = new Set([...readsOf(loadSignerConfig, signerEnv()), ...readsOf((env) => signerEnvFile(env), {})]);

  it('the representative environments are valid and connect every network (so every per-network key is read)', () => {
    expect(loadConfig(apiEnv('production')).chains.map((chain) => [chain.network, Boolean(chain.signerUrl && chain.hotCold)])).toEqual(
      CHAIN_NETWORKS.map((network) => [network, true]),
    );
    expect(loadSignerConfig(signerEnv()).networks.map((network) => network.network)).toEqual([...CHAIN_NETWORKS]);
    expect(apiReads).toContain('CHAIN_<NETWORK>_COLD_ADDRESSES');
    expect(signerReads).toContain('CHAIN_<NETWORK>_KEY_FILE');
  });

  it('the API refuses the signer’s settings and the signer the API’s, so neither example offers the other’s', () => {
    for (const setting of SIGNER_ONLY_SETTINGS) {
      expect(() => loadConfig({ ...apiEnv('production'), [`CHAIN_LITECOIN_${setting}`]: 'x' })).toThrow(/is a setting of the signer process/);
    }
    for (const setting of API_ONLY_SETTINGS) {
      expect(() => loadSignerConfig({ ...signerEnv(), [`CHAIN_LITECOIN_${setting}`]: 'x' })).toThrow(/is a setting of the API/);
    }
  });

  it('.env.example lists every variable the API reads', () => {
    expect(minus(apiReads, [...API_REFUSES, ...listedIn('.env.example')])).toEqual([]);
  });

  it('.env.example lists nothing the API does not read (nor what it refuses)', () => {
    expect(minus(listedIn('.env.example'), minus(apiReads, API_REFUSES))).toEqual([]);
  });

  it('signer.env.example lists every variable the signer reads', () => {
    expect(minus(signerReads, [...SIGNER_REFUSES, ...listedIn('signer.env.example')])).toEqual([]);
  });

  it('signer.env.example lists nothing the signer does not read (nor what it refuses)', () => {
    expect(minus(listedIn('signer.env.example'), minus(signerReads, SIGNER_REFUSES))).toEqual([]);
  });
});
