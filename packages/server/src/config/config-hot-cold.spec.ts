import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { ConfigError } from './settings';

/** BIP84 account key m/84'/1'/0' of the "abandon … about" test mnemonic. */
const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';
/** The hot signer is the signer process (its URL and token; PostgreSQL, which it shares). */
const signer = { DATABASE_URL: 'postgres://127.0.0.1:5432/coinpurse', SIGNER_TOKEN: 't'.repeat(32) };
const litecoin = {
  CHAIN_LITECOIN_RPC_URL: 'http://127.0.0.1:19443',
  CHAIN_LITECOIN_XPUB: TPUB,
  CHAIN_LITECOIN_CHAIN: 'regtest',
  CHAIN_LITECOIN_SIGNER_URL: 'http://127.0.0.1:3100',
  ...signer,
};
const COLD_ADDRESS = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

const problems = (env: Record<string, string>) => {
  try {
    loadConfig({ DATA_DIR: ':memory:', ...env });
  } catch (error) {
    return (error as ConfigError).problems.join('\n');
  }
  return '';
};

describe('CHAIN_<NETWORK>_HOT_LIMIT, _HOT_DAILY_LIMIT and the cold side (COLD_WALLET / COLD_ADDRESS)', () => {
  it('reads the limits in the network’s own coin and the cold side; unset, every payout is paid hot', () => {
    const config = loadConfig({
      DATA_DIR: ':memory:',
      ...litecoin,
      CHAIN_LITECOIN_HOT_LIMIT: '0.5',
      CHAIN_LITECOIN_HOT_DAILY_LIMIT: ' 2 ',
      CHAIN_LITECOIN_COLD_WALLET: 'cold-watch',
    });
    expect(config.chains[0].hotCold).toEqual({ hotLimit: '0.5', hotDailyLimit: '2', coldWallet: 'cold-watch' });
    expect(loadConfig({ DATA_DIR: ':memory:', ...litecoin }).chains[0].hotCold).toBeUndefined();
  });

  it('an EVM network names a cold address', () => {
    const evm = {
      CHAIN_ETHEREUM_RPC_URL: 'http://127.0.0.1:8545',
      CHAIN_ETHEREUM_XPUB: TPUB,
      CHAIN_ETHEREUM_CHAIN: 'regtest',
      CHAIN_ETHEREUM_SIGNER_URL: 'http://127.0.0.1:3100',
      ...signer,
    };
    const config = loadConfig({ DATA_DIR: ':memory:', ...evm, CHAIN_ETHEREUM_HOT_LIMIT: '1.000000000000000001', CHAIN_ETHEREUM_COLD_ADDRESS: COLD_ADDRESS });
    expect(config.chains[0].hotCold).toEqual({ hotLimit: '1.000000000000000001', coldAddress: COLD_ADDRESS });
    expect(problems({ ...evm, CHAIN_ETHEREUM_COLD_ADDRESS: '0x1234' })).toContain('CHAIN_ETHEREUM_COLD_ADDRESS must be an address (0x and 40 hex digits)');
    expect(problems({ ...evm, CHAIN_ETHEREUM_COLD_WALLET: 'cold' })).toContain('CHAIN_ETHEREUM_COLD_WALLET is for the UTXO family');
  });

  it('refuses limits that are not positive amounts of the coin, a limit without a cold side or without a hot signer', () => {
    const cold = { CHAIN_LITECOIN_COLD_WALLET: 'cold-watch' };
    for (const bad of ['0', '-1', '1e3', 'one', '0.000000001', '1.']) {
      expect(problems({ ...litecoin, ...cold, CHAIN_LITECOIN_HOT_LIMIT: bad })).toContain(
        `CHAIN_LITECOIN_HOT_LIMIT must be a positive amount of the network's own coin with at most 8 decimals (got "${bad}")`,
      );
    }
    expect(problems({ ...litecoin, ...cold, CHAIN_LITECOIN_HOT_DAILY_LIMIT: '0.00' })).toContain('CHAIN_LITECOIN_HOT_DAILY_LIMIT must be a positive amount');
    expect(problems({ ...litecoin, CHAIN_LITECOIN_HOT_LIMIT: '1' })).toContain(
      'CHAIN_LITECOIN_HOT_LIMIT and _HOT_DAILY_LIMIT need the cold side that pays above them: set CHAIN_LITECOIN_COLD_WALLET',
    );
    const { CHAIN_LITECOIN_SIGNER_URL: _hot, ...withoutHot } = litecoin;
    expect(problems({ ...withoutHot, ...cold, CHAIN_LITECOIN_HOT_LIMIT: '1' })).toContain(
      "CHAIN_LITECOIN_HOT_LIMIT, _HOT_DAILY_LIMIT and the cold side need the network's hot signer: set CHAIN_LITECOIN_SIGNER_URL too",
    );
    expect(problems({ ...litecoin, ...cold, CHAIN_LITECOIN_HOT_LIMIT: '3', CHAIN_LITECOIN_HOT_DAILY_LIMIT: '2' })).toContain(
      'CHAIN_LITECOIN_HOT_LIMIT must not be larger than CHAIN_LITECOIN_HOT_DAILY_LIMIT',
    );
    expect(problems({ ...litecoin, CHAIN_LITECOIN_COLD_WALLET: '../x' })).toContain('CHAIN_LITECOIN_COLD_WALLET must be a node wallet name');
    expect(problems({ ...litecoin, CHAIN_LITECOIN_COLD_ADDRESS: COLD_ADDRESS })).toContain('CHAIN_LITECOIN_COLD_ADDRESS is for the EVM family');
    expect(problems({ CHAIN_LITECOIN_HOT_LIMIT: '1' })).toContain(
      "CHAIN_LITECOIN_HOT_LIMIT needs the network's node: set CHAIN_LITECOIN_RPC_URL and CHAIN_LITECOIN_XPUB too",
    );
    expect(problems({ CHAIN_TRON_HOT_LIMIT: '1' })).toContain('CHAIN_TRON_HOT_LIMIT: no such network');
  });
});
