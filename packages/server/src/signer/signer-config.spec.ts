import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config/settings';
import { parseEvmKeyFile } from './evm-key-file';
import { loadSignerConfig } from './signer-config';

const seed = (words: string) => mnemonicToSeedSync(words);
/** m/44'/60'/0' of the "abandon … about" test mnemonic, and of another one. */
const ACCOUNT = HDKey.fromMasterSeed(seed('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about')).derive(
  "m/44'/60'/0'",
);
const OTHER = HDKey.fromMasterSeed(seed('legal winner thank year wave sausage worth useful legal winner thank yellow')).derive("m/44'/60'/0'");
const HOT_KEY = `0x${'ab'.repeat(32)}`;
/** BIP84 account key m/84'/1'/0' of the test mnemonic. */
const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';
const base = { SIGNER_TOKEN: 'x'.repeat(32), DATABASE_URL: 'postgres://127.0.0.1:5432/coinpurse' };
const evm = { CHAIN_ETHEREUM_RPC_URL: 'http://127.0.0.1:8545', CHAIN_ETHEREUM_XPUB: ACCOUNT.publicExtendedKey, CHAIN_ETHEREUM_CHAIN: 'regtest' };
const litecoin = { CHAIN_LITECOIN_RPC_URL: 'http://signer:pw@127.0.0.1:19443', CHAIN_LITECOIN_XPUB: TPUB, CHAIN_LITECOIN_CHAIN: 'regtest' };

const dir = mkdtempSync(join(tmpdir(), 'coinpurse-keyfile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
/** A key file with these lines, readable by its owner only. */
const keyFile = (...lines: string[]) => {
  const file = join(dir, `key-${files++}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  chmodSync(file, 0o600);
  return file;
};
const problems = (env: Record<string, string>) => {
  try {
    loadSignerConfig(env);
  } catch (error) {
    return (error as ConfigError).problems.join('\n');
  }
  return '';
};

describe('the signer process configuration (validated once at boot)', () => {
  it('reads its token, its database, where it listens, and per network the node wallet or the key file', () => {
    const config = loadSignerConfig({
      ...base,
      ...litecoin,
      CHAIN_LITECOIN_WALLET: ' hot-1 ',
      ...evm,
      CHAIN_ETHEREUM_KEY_FILE: keyFile(HOT_KEY),
      SIGNER_PORT: '0',
    });
    expect(config).toMatchObject({ host: '127.0.0.1', port: 0, token: base.SIGNER_TOKEN, databaseUrl: base.DATABASE_URL });
    expect(config.networks.map((n) => [n.network, n.wallet, n.keys?.hotKey])).toEqual([
      ['litecoin', 'hot-1', undefined],
      ['ethereum', undefined, HOT_KEY],
    ]);
    // The RPC URL's password never goes to logs.
    expect(config.networks[0].rpcUrlForLogs).toBe('http://127.0.0.1:19443');
  });

  it('refuses a missing or short token, PGlite (no DATABASE_URL), and nothing to sign with', () => {
    expect(problems({ ...litecoin, CHAIN_LITECOIN_WALLET: 'hot', DATABASE_URL: base.DATABASE_URL })).toContain(
      'SIGNER_TOKEN must be set, at least 32 characters',
    );
    expect(problems({ ...litecoin, CHAIN_LITECOIN_WALLET: 'hot', SIGNER_TOKEN: base.SIGNER_TOKEN })).toContain(
      "DATABASE_URL must be the PostgreSQL URL of the API's database",
    );
    expect(problems({ ...base, ...litecoin })).toContain('the signer has no key');
  });

  it('CHAIN_<NETWORK>_WALLET: a plain wallet name, UTXO family only', () => {
    expect(problems({ ...base, ...litecoin, CHAIN_LITECOIN_WALLET: '../other' })).toContain(
      'CHAIN_LITECOIN_WALLET must be a node wallet name of letters, digits, ".", "_" or "-" (at most 64)',
    );
    expect(problems({ ...base, ...evm, CHAIN_ETHEREUM_WALLET: 'hot' })).toContain('CHAIN_ETHEREUM_WALLET is for the UTXO family');
    expect(problems({ ...base, CHAIN_TRON_WALLET: 'hot' })).toContain('CHAIN_TRON_WALLET: no such network');
  });

  it('CHAIN_<NETWORK>_KEY_FILE: the hot key and the xprv (either order), readable by its owner only, the xprv the counterpart of the XPUB', () => {
    const both = keyFile(ACCOUNT.privateExtendedKey, '', HOT_KEY);
    const [network] = loadSignerConfig({ ...base, ...evm, CHAIN_ETHEREUM_KEY_FILE: both }).networks;
    expect(network.keys?.hotKey).toBe(HOT_KEY);
    expect(network.keys?.depositKey?.publicExtendedKey).toBe(ACCOUNT.publicExtendedKey);
    expect(parseEvmKeyFile(`${HOT_KEY}\n`).depositKey).toBeUndefined();
    expect(problems({ ...base, ...evm, CHAIN_ETHEREUM_KEY_FILE: keyFile(HOT_KEY, OTHER.privateExtendedKey) })).toContain(
      'CHAIN_ETHEREUM_KEY_FILE holds an extended private key that is not the private counterpart of CHAIN_ETHEREUM_XPUB',
    );
    const open = keyFile(HOT_KEY);
    chmodSync(open, 0o644);
    expect(problems({ ...base, ...evm, CHAIN_ETHEREUM_KEY_FILE: open })).toContain('CHAIN_ETHEREUM_KEY_FILE must be readable by its owner only (chmod 600)');
    expect(problems({ ...base, ...evm, CHAIN_ETHEREUM_KEY_FILE: join(dir, 'missing') })).toContain('CHAIN_ETHEREUM_KEY_FILE cannot be read');
    expect(problems({ ...base, ...litecoin, CHAIN_LITECOIN_KEY_FILE: keyFile(HOT_KEY) })).toContain('CHAIN_LITECOIN_KEY_FILE is for the EVM family');
  });

  it('refuses a key file without the hot key, with two of a kind, with garbage or a non-account xprv; never repeating its content', () => {
    const cases: Array<[string[], string]> = [
      [[ACCOUNT.privateExtendedKey], 'it holds no hot key'],
      [[HOT_KEY, HOT_KEY], 'it holds two hot keys'],
      [[HOT_KEY, ACCOUNT.privateExtendedKey, ACCOUNT.privateExtendedKey], 'it holds two extended private keys'],
      [[HOT_KEY, 'hello'], 'it has a line that is neither a hot key'],
      [[HOT_KEY, ACCOUNT.deriveChild(0).privateExtendedKey], 'it has an extended private key that is not account-level'],
    ];
    for (const [lines, message] of cases) {
      const found = problems({ ...base, ...evm, CHAIN_ETHEREUM_KEY_FILE: keyFile(...lines) });
      expect(found).toContain('CHAIN_ETHEREUM_KEY_FILE must hold one private key as 64 hex digits');
      expect(found).toContain(message);
      expect(found).not.toContain(ACCOUNT.privateExtendedKey.slice(4, 20));
    }
  });

  it('CHAIN_<NETWORK>_MAX_FEE: the ceiling it signs under, default per network, an amount of the network coin', () => {
    const [ltc, eth] = loadSignerConfig({ ...base, ...litecoin, CHAIN_LITECOIN_WALLET: 'hot', ...evm, CHAIN_ETHEREUM_KEY_FILE: keyFile(HOT_KEY) }).networks;
    expect([ltc.maxFee, eth.maxFee]).toEqual(['0.05', '0.005']);
    const set = { ...base, ...litecoin, CHAIN_LITECOIN_WALLET: 'hot' };
    expect(loadSignerConfig({ ...set, CHAIN_LITECOIN_MAX_FEE: '0.00004' }).networks[0].maxFee).toBe('0.00004');
    expect(
      loadSignerConfig({ ...base, ...evm, CHAIN_ETHEREUM_KEY_FILE: keyFile(HOT_KEY), CHAIN_ETHEREUM_MAX_FEE: '0.000000000000000001' }).networks[0].maxFee,
    ).toBe('0.000000000000000001');
    expect(problems({ ...set, CHAIN_LITECOIN_MAX_FEE: '0' })).toContain(
      'CHAIN_LITECOIN_MAX_FEE must be a positive amount of the network\'s own coin with at most 8 decimals (got "0")',
    );
    expect(problems({ ...set, CHAIN_LITECOIN_MAX_FEE: '0.000000001' })).toContain('CHAIN_LITECOIN_MAX_FEE must be a positive amount');
    expect(problems({ ...set, CHAIN_TRON_MAX_FEE: '1' })).toContain('CHAIN_TRON_MAX_FEE: no such network');
    expect(problems({ ...set, CHAIN_BITCOIN_MAX_FEE: '1' })).toContain(
      "CHAIN_BITCOIN_MAX_FEE needs the network's node: set CHAIN_BITCOIN_RPC_URL and CHAIN_BITCOIN_XPUB too",
    );
  });

  it('refuses every API setting, on a network with a node or without, the cause on the first line; reads none of the policy', () => {
    const set = { ...base, ...litecoin, CHAIN_LITECOIN_WALLET: 'hot' };
    for (const [name, value] of [
      ['CHAIN_LITECOIN_SIGNER_URL', 'http://127.0.0.1:3100'],
      ['CHAIN_LITECOIN_CONFIRMATIONS', '12'],
      ['CHAIN_LITECOIN_STUCK_MINUTES', '15'],
      ['CHAIN_LITECOIN_HOT_LIMIT', '1'],
      ['CHAIN_LITECOIN_COLD_WALLET', 'cold-watch'],
      ['CHAIN_ETHEREUM_COLD_ADDRESS', '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'],
      ['CHAIN_BITCOIN_COLD_ADDRESSES', 'bcrt1q…'],
    ]) {
      // A bad token too: the misplaced setting is still said first.
      const found = problems({ ...set, SIGNER_TOKEN: 'short', [name]: value }).split('\n');
      expect(found[0]).toBe(
        `${name} is a setting of the API (node dist/main.js), not of the signer: it belongs in the API's .env (see .env.example), not in signer.env`,
      );
      expect(found).toContain('SIGNER_TOKEN must be set, at least 32 characters (the same value as the API)');
    }
    // Not read as settings: a value the API would refuse is only said to be misplaced (the signer used to check them).
    expect(problems({ ...set, CHAIN_LITECOIN_CONFIRMATIONS: 'many' }).split('\n')).toEqual([
      "CHAIN_LITECOIN_CONFIRMATIONS is a setting of the API (node dist/main.js), not of the signer: it belongs in the API's .env (see .env.example), not in signer.env",
    ]);
  });

  it('LOG_LEVEL and LOG_FORMAT: JSON unless a person watches a terminal', () => {
    const set = { ...base, ...litecoin, CHAIN_LITECOIN_WALLET: 'hot' };
    expect(loadSignerConfig(set, false)).toMatchObject({ logLevel: 'info', logFormat: 'json' });
    expect(loadSignerConfig(set, true)).toMatchObject({ logFormat: 'pretty' });
    expect(loadSignerConfig({ ...set, LOG_FORMAT: 'json', LOG_LEVEL: 'WARN' }, true)).toMatchObject({ logLevel: 'warn', logFormat: 'json' });
    expect(problems({ ...set, LOG_FORMAT: 'xml' })).toContain('LOG_FORMAT must be json or pretty (got "xml")');
    expect(problems({ ...set, LOG_LEVEL: 'loud' })).toContain('LOG_LEVEL must be one of');
  });
});
