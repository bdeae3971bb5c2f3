import { describe, expect, it } from 'vitest';
import { explorerOf, findNetwork } from './networks';
import { parseExplorerSettings } from '../config/explorer-settings';

describe('CHAIN_<NETWORK>_EXPLORER_URL', () => {
  const litecoin = findNetwork('litecoin')!;

  it('reads a base URL, a pattern or none per network, and refuses anything else', () => {
    const problems: string[] = [];
    expect(
      parseExplorerSettings(
        {
          CHAIN_LITECOIN_EXPLORER_URL: 'https://litecoinspace.org/testnet/',
          CHAIN_BITCOIN_CASH_EXPLORER_URL: 'none',
          CHAIN_TRON_EXPLORER_URL: 'ftp://tron.example/{tx}',
          CHAIN_SOLANA_EXPLORER_URL: ' ',
        },
        problems,
      ),
    ).toEqual({ litecoin: 'https://litecoinspace.org/testnet', 'bitcoin-cash': 'none' });
    expect(problems).toEqual(['CHAIN_TRON_EXPLORER_URL must be an http or https URL, or none (got "ftp://tron.example/{tx}")']);
  });

  it('unset: the mainnet explorer, none for a node on a test chain (a mainnet explorer would not find its transactions)', () => {
    expect(explorerOf(litecoin, undefined, undefined).explorerTx).toBe('https://litecoinspace.org/tx/{tx}');
    expect(explorerOf(litecoin, undefined, 'mainnet').explorerTx).toBe('https://litecoinspace.org/tx/{tx}');
    expect(explorerOf(litecoin, undefined, 'regtest')).toEqual({ explorerTx: '', explorerAddress: '' });
    expect(explorerOf(litecoin, undefined, 'testnet')).toEqual({ explorerTx: '', explorerAddress: '' });
  });

  it('set: the base with the network’s own paths, a pattern as given, none', () => {
    expect(explorerOf(litecoin, 'https://litecoinspace.org/testnet', 'testnet')).toEqual({
      explorerTx: 'https://litecoinspace.org/testnet/tx/{tx}',
      explorerAddress: 'https://litecoinspace.org/testnet/address/{address}',
    });
    expect(explorerOf(findNetwork('tron')!, 'https://nile.tronscan.org', undefined).explorerTx).toBe('https://nile.tronscan.org/#/transaction/{tx}');
    expect(explorerOf(litecoin, 'http://explorer.local:3002/ltc/tx/{tx}', 'regtest')).toEqual({
      explorerTx: 'http://explorer.local:3002/ltc/tx/{tx}',
      explorerAddress: '',
    });
    expect(explorerOf(litecoin, 'none', 'mainnet')).toEqual({ explorerTx: '', explorerAddress: '' });
  });
});
