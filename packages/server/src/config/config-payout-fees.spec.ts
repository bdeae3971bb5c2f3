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

describe('CHAIN_<NETWORK>_STUCK_MINUTES (fee bumps of stuck payouts) in the API; CHAIN_<NETWORK>_MAX_FEE is the signer’s', () => {
  it('default per network; minutes may have a fraction', () => {
    expect(loadConfig({ DATA_DIR: ':memory:', ...litecoin }).chains[0]).toMatchObject({ stuckMinutes: 15 });
    expect(loadConfig({ DATA_DIR: ':memory:', ...ethereum }).chains[0]).toMatchObject({ stuckMinutes: 2 });
    expect(loadConfig({ DATA_DIR: ':memory:', ...litecoin, CHAIN_LITECOIN_STUCK_MINUTES: '0.5' }).chains[0]).toMatchObject({ stuckMinutes: 0.5 });
  });

  it('refuses minutes that are not positive, and an unknown network', () => {
    expect(problems({ ...litecoin, CHAIN_LITECOIN_STUCK_MINUTES: '0' })).toContain(
      'CHAIN_LITECOIN_STUCK_MINUTES must be a positive number of minutes such as 30 or 0.5 (got "0")',
    );
    expect(problems({ ...litecoin, CHAIN_LITECOIN_STUCK_MINUTES: 'soon' })).toContain('CHAIN_LITECOIN_STUCK_MINUTES must be a positive number');
    expect(problems({ CHAIN_TRON_STUCK_MINUTES: '1' })).toContain('CHAIN_TRON_STUCK_MINUTES: no such network');
  });

  it('refuses the fee ceiling, first: one process (the signer) enforces it, so the two can never disagree', () => {
    const found = problems({ ...litecoin, CHAIN_LITECOIN_STUCK_MINUTES: '0', CHAIN_LITECOIN_MAX_FEE: '0.05' }).split('\n');
    expect(found[0]).toBe(
      "CHAIN_LITECOIN_MAX_FEE is a setting of the signer process (node dist/signer.js), not of the API: it belongs in the signer's own env file (see signer.env.example), where the signer enforces it and names it in what it refuses",
    );
    expect(problems({ CHAIN_LITECOIN_MAX_FEE: '0.05' })).toContain('CHAIN_LITECOIN_MAX_FEE is a setting of the signer process');
  });
});
