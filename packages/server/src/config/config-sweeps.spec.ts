import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { parseEvmKeyFile } from './evm-key-file';

const seed = (words: string) => mnemonicToSeedSync(words);
/** m/44'/60'/0' of the "abandon … about" test mnemonic, and of another one. */
const ACCOUNT = HDKey.fromMasterSeed(seed('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about')).derive(
  "m/44'/60'/0'",
);
const OTHER = HDKey.fromMasterSeed(seed('legal winner thank year wave sausage worth useful legal winner thank yellow')).derive("m/44'/60'/0'");
const HOT_KEY = `0x${'ab'.repeat(32)}`;
const evm = { CHAIN_ETHEREUM_RPC_URL: 'http://127.0.0.1:8545', CHAIN_ETHEREUM_XPUB: ACCOUNT.publicExtendedKey, CHAIN_ETHEREUM_CHAIN: 'regtest' };

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
    loadConfig({ DATA_DIR: ':memory:', ...env });
  } catch (error) {
    return (error as ConfigError).problems.join('\n');
  }
  return '';
};

describe('CHAIN_<NETWORK>_KEY_FILE with the account xprv, and CHAIN_<NETWORK>_SWEEP_MIN (EVM sweeps)', () => {
  it('reads the hot key and the xprv (either order); the xprv must be the private counterpart of the XPUB', () => {
    const both = keyFile(ACCOUNT.privateExtendedKey, '', HOT_KEY);
    const config = loadConfig({ DATA_DIR: ':memory:', ...evm, CHAIN_ETHEREUM_KEY_FILE: both, CHAIN_ETHEREUM_SWEEP_MIN: '25.5' });
    expect(config.chains[0]).toMatchObject({ keyFile: both, sweepMinUsd: '25.5' });
    const keys = parseEvmKeyFile(`${HOT_KEY}\n${ACCOUNT.privateExtendedKey}\n`);
    expect(keys.hotKey).toBe(HOT_KEY);
    expect(keys.depositKey?.publicExtendedKey).toBe(ACCOUNT.publicExtendedKey);
    // The hot key alone still pays withdrawals (no sweeps).
    expect(loadConfig({ DATA_DIR: ':memory:', ...evm, CHAIN_ETHEREUM_KEY_FILE: keyFile(HOT_KEY) }).chains[0].sweepMinUsd).toBeUndefined();
    expect(problems({ ...evm, CHAIN_ETHEREUM_KEY_FILE: keyFile(HOT_KEY, OTHER.privateExtendedKey) })).toContain(
      'CHAIN_ETHEREUM_KEY_FILE holds an extended private key that is not the private counterpart of CHAIN_ETHEREUM_XPUB',
    );
  });

  it('refuses a file without the hot key, with two of a kind, with garbage or a non-account xprv; never repeating its content', () => {
    const cases: Array<[string[], string]> = [
      [[ACCOUNT.privateExtendedKey], 'it holds no hot key'],
      [[HOT_KEY, HOT_KEY], 'it holds two hot keys'],
      [[HOT_KEY, ACCOUNT.privateExtendedKey, ACCOUNT.privateExtendedKey], 'it holds two extended private keys'],
      [[HOT_KEY, 'hello'], 'it has a line that is neither a hot key'],
      [[HOT_KEY, ACCOUNT.deriveChild(0).privateExtendedKey], 'it has an extended private key that is not account-level'],
    ];
    for (const [lines, message] of cases) {
      const found = problems({ ...evm, CHAIN_ETHEREUM_KEY_FILE: keyFile(...lines) });
      expect(found).toContain('CHAIN_ETHEREUM_KEY_FILE must hold one private key as 64 hex digits');
      expect(found).toContain(message);
      expect(found).not.toContain(ACCOUNT.privateExtendedKey.slice(4, 20));
    }
  });

  it('CHAIN_<NETWORK>_SWEEP_MIN is a USD amount, needs the xprv in the key file, and is for the EVM family only', () => {
    expect(problems({ ...evm, CHAIN_ETHEREUM_KEY_FILE: keyFile(HOT_KEY, ACCOUNT.privateExtendedKey), CHAIN_ETHEREUM_SWEEP_MIN: 'lots' })).toContain(
      'CHAIN_ETHEREUM_SWEEP_MIN must be a USD amount such as 50',
    );
    expect(problems({ ...evm, CHAIN_ETHEREUM_KEY_FILE: keyFile(HOT_KEY), CHAIN_ETHEREUM_SWEEP_MIN: '50' })).toContain(
      "CHAIN_ETHEREUM_SWEEP_MIN needs CHAIN_ETHEREUM_KEY_FILE with the account's extended private key (xprv)",
    );
    expect(problems({ ...evm, CHAIN_ETHEREUM_SWEEP_MIN: '50' })).toContain('CHAIN_ETHEREUM_SWEEP_MIN needs CHAIN_ETHEREUM_KEY_FILE');
    const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';
    expect(
      problems({
        CHAIN_LITECOIN_RPC_URL: 'http://127.0.0.1:19443',
        CHAIN_LITECOIN_XPUB: TPUB,
        CHAIN_LITECOIN_CHAIN: 'regtest',
        CHAIN_LITECOIN_SWEEP_MIN: '50',
      }),
    ).toContain('CHAIN_LITECOIN_SWEEP_MIN is for the EVM family');
  });
});
