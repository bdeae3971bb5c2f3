import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { ConfigError } from './settings';

/** BIP84 account key m/84'/1'/0' of the "abandon … about" test mnemonic. */
const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';
const litecoin = { CHAIN_LITECOIN_RPC_URL: 'http://127.0.0.1:19443', CHAIN_LITECOIN_XPUB: TPUB, CHAIN_LITECOIN_CHAIN: 'regtest' };

const problems = (env: Record<string, string>) => {
  try {
    loadConfig({ DATA_DIR: ':memory:', ...env });
  } catch (error) {
    return (error as ConfigError).problems.join('\n');
  }
  return '';
};

describe('CHAIN_<NETWORK>_COLD_ADDRESSES (cold wallets watched on the Reserves screen)', () => {
  it('lists the addresses, trimmed, in order; unset, none', () => {
    expect(
      loadConfig({ DATA_DIR: ':memory:', ...litecoin, CHAIN_LITECOIN_COLD_ADDRESSES: ' rltc1qaaaaaaaaaaaaaa , mxyzxyzxyzxyzxyz,' }).chains[0].coldAddresses,
    ).toEqual(['rltc1qaaaaaaaaaaaaaa', 'mxyzxyzxyzxyzxyz']);
    expect(loadConfig({ DATA_DIR: ':memory:', ...litecoin }).chains[0].coldAddresses).toBeUndefined();
  });

  it('refuses what is not a list of addresses, an address twice, and cold addresses without a node', () => {
    expect(problems({ ...litecoin, CHAIN_LITECOIN_COLD_ADDRESSES: 'rltc1qaaaaaaaaaaaaaa; mxyzxyzxyzxyzxyz' })).toContain(
      'CHAIN_LITECOIN_COLD_ADDRESSES must be addresses separated by commas',
    );
    expect(problems({ ...litecoin, CHAIN_LITECOIN_COLD_ADDRESSES: 'rltc1qaaaaaaaaaaaaaa,rltc1qaaaaaaaaaaaaaa' })).toContain(
      'CHAIN_LITECOIN_COLD_ADDRESSES names an address twice',
    );
    expect(problems({ CHAIN_LITECOIN_COLD_ADDRESSES: 'rltc1qaaaaaaaaaaaaaa' })).toContain(
      "CHAIN_LITECOIN_COLD_ADDRESSES needs the network's node: set CHAIN_LITECOIN_RPC_URL and CHAIN_LITECOIN_XPUB too",
    );
    expect(problems({ CHAIN_TRON_COLD_ADDRESSES: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' })).toContain('CHAIN_TRON_COLD_ADDRESSES: no such network');
  });
});
