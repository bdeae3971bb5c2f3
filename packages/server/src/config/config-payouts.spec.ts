import { describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './config';

/** BIP84 account key m/84'/1'/0' of the "abandon … about" test mnemonic. */
const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';
const litecoin = { CHAIN_LITECOIN_RPC_URL: 'http://127.0.0.1:19443', CHAIN_LITECOIN_XPUB: TPUB, CHAIN_LITECOIN_CHAIN: 'regtest' };

describe('CHAIN_<NETWORK>_WALLET (the node wallet that pays withdrawals)', () => {
  it('names the hot wallet of a UTXO network; unset, the network settles withdrawals by hand', () => {
    expect(loadConfig({ DATA_DIR: ':memory:', ...litecoin, CHAIN_LITECOIN_WALLET: ' hot-1 ' }).chains[0].wallet).toBe('hot-1');
    expect(loadConfig({ DATA_DIR: ':memory:', ...litecoin }).chains[0].wallet).toBeUndefined();
  });

  it('refuses a name that is not a plain wallet name, a wallet on an EVM network, and a wallet without a node', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ DATA_DIR: ':memory:', ...env });
      } catch (error) {
        return (error as ConfigError).problems.join('\n');
      }
      return '';
    };
    expect(problems({ ...litecoin, CHAIN_LITECOIN_WALLET: '../other' })).toContain(
      'CHAIN_LITECOIN_WALLET must be a node wallet name of letters, digits, ".", "_" or "-" (at most 64)',
    );
    expect(
      problems({ CHAIN_ETHEREUM_RPC_URL: 'http://127.0.0.1:8545', CHAIN_ETHEREUM_XPUB: TPUB, CHAIN_ETHEREUM_CHAIN: 'regtest', CHAIN_ETHEREUM_WALLET: 'hot' }),
    ).toContain('CHAIN_ETHEREUM_WALLET is for the UTXO family');
    expect(problems({ CHAIN_TRON_WALLET: 'hot' })).toContain('CHAIN_TRON_WALLET: no such network');
    expect(problems({ CHAIN_LITECOIN_WALLET: 'hot' })).toContain(
      "CHAIN_LITECOIN_WALLET needs the network's node: set CHAIN_LITECOIN_RPC_URL and CHAIN_LITECOIN_XPUB too",
    );
  });

  it('CHAIN_<NETWORK>_KEY_FILE (EVM): one hex key in a file only its owner reads; never for a UTXO network', () => {
    const dir = mkdtempSync(join(tmpdir(), 'coinpurse-keyfile-'));
    try {
      const evm = { CHAIN_ETHEREUM_RPC_URL: 'http://127.0.0.1:8545', CHAIN_ETHEREUM_XPUB: TPUB, CHAIN_ETHEREUM_CHAIN: 'regtest' };
      const file = join(dir, 'hot.key');
      writeFileSync(file, `0x${'ab'.repeat(32)}\n`);
      chmodSync(file, 0o600);
      expect(loadConfig({ DATA_DIR: ':memory:', ...evm, CHAIN_ETHEREUM_KEY_FILE: file }).chains[0].keyFile).toBe(file);
      const problems = (env: Record<string, string>) => {
        try {
          loadConfig({ DATA_DIR: ':memory:', ...env });
        } catch (error) {
          return (error as ConfigError).problems.join('\n');
        }
        return '';
      };
      chmodSync(file, 0o644);
      expect(problems({ ...evm, CHAIN_ETHEREUM_KEY_FILE: file })).toContain('CHAIN_ETHEREUM_KEY_FILE must be readable by its owner only (chmod 600)');
      writeFileSync(file, 'not a key');
      chmodSync(file, 0o600);
      const garbage = problems({ ...evm, CHAIN_ETHEREUM_KEY_FILE: file });
      expect(garbage).toContain('CHAIN_ETHEREUM_KEY_FILE must hold one private key as 64 hex digits');
      expect(problems({ ...evm, CHAIN_ETHEREUM_KEY_FILE: join(dir, 'missing') })).toContain('CHAIN_ETHEREUM_KEY_FILE cannot be read');
      expect(problems({ ...litecoin, CHAIN_LITECOIN_KEY_FILE: file })).toContain('CHAIN_LITECOIN_KEY_FILE is for the EVM family');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
