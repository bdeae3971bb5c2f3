import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { ConfigError } from './settings';

/** BIP84 account key m/84'/1'/0' of the "abandon … about" test mnemonic. */
const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';
const litecoin = { CHAIN_LITECOIN_RPC_URL: 'http://127.0.0.1:19443', CHAIN_LITECOIN_XPUB: TPUB, CHAIN_LITECOIN_CHAIN: 'regtest' };
const postgres = { DATABASE_URL: 'postgres://127.0.0.1:5432/coinpurse' };
const TOKEN = 's'.repeat(40);

const problems = (env: Record<string, string>) => {
  try {
    loadConfig({ DATA_DIR: ':memory:', ...env });
  } catch (error) {
    return (error as ConfigError).problems.join('\n');
  }
  return '';
};

describe('CHAIN_<NETWORK>_SIGNER_URL (the signer process that pays withdrawals) in the API', () => {
  it('names the signer process of a network, with SIGNER_TOKEN; unset, the network settles withdrawals by hand', () => {
    const config = loadConfig({ DATA_DIR: ':memory:', ...postgres, ...litecoin, CHAIN_LITECOIN_SIGNER_URL: 'http://127.0.0.1:3100/', SIGNER_TOKEN: TOKEN });
    expect(config.chains[0].signerUrl).toBe('http://127.0.0.1:3100');
    expect(config.signerToken).toBe(TOKEN);
    expect(loadConfig({ DATA_DIR: ':memory:', ...litecoin }).chains[0].signerUrl).toBeUndefined();
  });

  it('refuses the keys themselves (CHAIN_<NETWORK>_WALLET, _KEY_FILE: signer settings), naming that cause on the first line', () => {
    const refused = problems({ PORT: 'not a port', ...postgres, ...litecoin, CHAIN_LITECOIN_WALLET: 'hot' }).split('\n');
    // The first line is the real cause, even before the API's own problems; no misleading "no such network" follows.
    expect(refused[0]).toBe(
      "CHAIN_LITECOIN_WALLET is a setting of the signer process (node dist/signer.js), not of the API: it belongs in the signer's own env file (see signer.env.example). Here set CHAIN_LITECOIN_SIGNER_URL and SIGNER_TOKEN instead",
    );
    expect(refused.join('\n')).not.toContain('no such network');
    expect(problems({ CHAIN_ETHEREUM_RPC_URL: 'http://127.0.0.1:8545', CHAIN_ETHEREUM_XPUB: TPUB, CHAIN_ETHEREUM_KEY_FILE: '/etc/hot.key' })).toContain(
      'CHAIN_ETHEREUM_KEY_FILE is a setting of the signer process',
    );
    expect(problems({ CHAIN_TRON_KEY_FILE: '/etc/hot.key' })).toContain('CHAIN_TRON_KEY_FILE: no such network');
  });

  it('needs PostgreSQL (PGlite lives inside the API process), a token of 32 characters, an http URL and the node', () => {
    expect(problems({ ...litecoin, CHAIN_LITECOIN_SIGNER_URL: 'http://127.0.0.1:3100', SIGNER_TOKEN: TOKEN })).toContain(
      'CHAIN_<NETWORK>_SIGNER_URL needs PostgreSQL (DATABASE_URL): the signer process reads the approved withdrawals itself, and PGlite is only reachable from inside this process',
    );
    expect(problems({ ...postgres, ...litecoin, CHAIN_LITECOIN_SIGNER_URL: 'http://127.0.0.1:3100', SIGNER_TOKEN: 'short' })).toContain(
      'SIGNER_TOKEN must be set (at least 32 characters',
    );
    expect(problems({ ...postgres, ...litecoin, CHAIN_LITECOIN_SIGNER_URL: 'ftp://signer', SIGNER_TOKEN: TOKEN })).toContain(
      'CHAIN_LITECOIN_SIGNER_URL must be an http or https URL without credentials',
    );
    expect(problems({ ...postgres, ...litecoin, CHAIN_LITECOIN_SIGNER_URL: 'http://user:pw@127.0.0.1:3100', SIGNER_TOKEN: TOKEN })).toContain(
      'CHAIN_LITECOIN_SIGNER_URL must be an http or https URL without credentials',
    );
    expect(problems({ CHAIN_LITECOIN_SIGNER_URL: 'http://127.0.0.1:3100' })).toContain(
      "CHAIN_LITECOIN_SIGNER_URL needs the network's node: set CHAIN_LITECOIN_RPC_URL and CHAIN_LITECOIN_XPUB too",
    );
  });

  it('CHAIN_<NETWORK>_SWEEP_MIN is a USD amount, needs the signer process, and is for the EVM family only', () => {
    const evm = { CHAIN_ETHEREUM_RPC_URL: 'http://127.0.0.1:8545', CHAIN_ETHEREUM_XPUB: TPUB, CHAIN_ETHEREUM_CHAIN: 'regtest' };
    const signed = { ...postgres, ...evm, CHAIN_ETHEREUM_SIGNER_URL: 'http://127.0.0.1:3100', SIGNER_TOKEN: TOKEN };
    expect(loadConfig({ DATA_DIR: ':memory:', ...signed, CHAIN_ETHEREUM_SWEEP_MIN: '25.5' }).chains[0].sweepMinUsd).toBe('25.5');
    expect(problems({ ...signed, CHAIN_ETHEREUM_SWEEP_MIN: 'lots' })).toContain('CHAIN_ETHEREUM_SWEEP_MIN must be a USD amount such as 50');
    expect(problems({ ...evm, CHAIN_ETHEREUM_SWEEP_MIN: '50' })).toContain('CHAIN_ETHEREUM_SWEEP_MIN needs the signer process (CHAIN_ETHEREUM_SIGNER_URL)');
    expect(problems({ ...litecoin, CHAIN_LITECOIN_SWEEP_MIN: '50' })).toContain('CHAIN_LITECOIN_SWEEP_MIN is for the EVM family');
  });
});
