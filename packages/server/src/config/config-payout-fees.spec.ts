import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { type ConfigError } from './settings';

/** BIP84 account key m/84'/1'/0' of the "abandon … about" test mnemonic. */
const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';
const litecoin = { CHAIN_LITECOIN_RPC_URL: 'http://127.0.0.1:19443', CHAIN_LITECOIN_XPUB: TPUB, CHAIN_LITECOIN_CHAIN: 'regtest' };
const ethereum = { CHAIN_ETHEREUM_RPC_URL: 'http://127.0.0.1:8545', CHAIN_ETHEREUM_XPUB: TPUB, CHAIN_ETHEREUM_CHAIN: 'regtest' };

const problems = (env: Record<string, string>) => {
  try {
    loadConfig({ DATA_DIR: ':memory:', ...env });
  } catch (error) {
    return (error as ConfigError).problems.join('\n');
  }
  return '';
};

describe('CHAIN_<NETWORK>_STUCK_MINUTES and CHAIN_<NETWORK>_MAX_FEE (fee bumps of stuck payouts, within a ceiling)', () => {
  it('default per network; minutes may have a fraction, the ceiling is an amount of the network coin', () => {
    expect(loadConfig({ DATA_DIR: ':memory:', ...litecoin }).chains[0]).toMatchObject({ stuckMinutes: 15, maxFee: '0.05' });
    expect(loadConfig({ DATA_DIR: ':memory:', ...ethereum }).chains[0]).toMatchObject({ stuckMinutes: 2, maxFee: '0.005' });
    expect(loadConfig({ DATA_DIR: ':memory:', ...litecoin, CHAIN_LITECOIN_STUCK_MINUTES: '0.5', CHAIN_LITECOIN_MAX_FEE: '0.00004' }).chains[0]).toMatchObject({
      stuckMinutes: 0.5,
      maxFee: '0.00004',
    });
    expect(loadConfig({ DATA_DIR: ':memory:', ...ethereum, CHAIN_ETHEREUM_MAX_FEE: '0.000000000000000001' }).chains[0].maxFee).toBe('0.000000000000000001');
  });

  it('refuses minutes that are not positive, a ceiling of zero or with more decimals than the coin, and an unknown network', () => {
    expect(problems({ ...litecoin, CHAIN_LITECOIN_STUCK_MINUTES: '0' })).toContain(
      'CHAIN_LITECOIN_STUCK_MINUTES must be a positive number of minutes such as 30 or 0.5 (got "0")',
    );
    expect(problems({ ...litecoin, CHAIN_LITECOIN_STUCK_MINUTES: 'soon' })).toContain('CHAIN_LITECOIN_STUCK_MINUTES must be a positive number');
    expect(problems({ ...litecoin, CHAIN_LITECOIN_MAX_FEE: '0' })).toContain(
      'CHAIN_LITECOIN_MAX_FEE must be a positive amount of the network\'s own coin with at most 8 decimals (got "0")',
    );
    expect(problems({ ...litecoin, CHAIN_LITECOIN_MAX_FEE: '0.000000001' })).toContain('CHAIN_LITECOIN_MAX_FEE must be a positive amount');
    expect(problems({ ...ethereum, CHAIN_ETHEREUM_MAX_FEE: '-1' })).toContain('with at most 18 decimals');
    expect(problems({ CHAIN_TRON_MAX_FEE: '1' })).toContain('CHAIN_TRON_MAX_FEE: no such network');
  });
});
