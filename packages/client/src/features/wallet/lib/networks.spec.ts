import { describe, expect, it } from 'vitest';
import type { WalletToken } from '../../../app/api/endpoints';
import { defaultSendNetwork, networksOf, shortAddress } from './networks';

const token = (networks?: WalletToken['networks']) => ({ id: 'tether', address: '0xabc', networks }) as unknown as WalletToken;

describe('wallet networks', () => {
  it('preselects the only network and makes the customer choose among several', () => {
    expect(defaultSendNetwork(token([{ network: 'ethereum', name: 'Ethereum (ERC-20)', address: '0xabc', depositNote: null }]))).toBe('ethereum');
    expect(
      defaultSendNetwork(
        token([
          { network: 'ethereum', name: 'Ethereum (ERC-20)', address: '0xabc', depositNote: null },
          { network: 'tron', name: 'Tron (TRC-20)', address: 'T1', depositNote: null },
        ]),
      ),
    ).toBe('');
  });
  it('treats a token list cached before networks existed as having none', () => {
    expect(networksOf(token(undefined))).toEqual([]);
    expect(defaultSendNetwork(token(undefined))).toBe('');
  });
  it('shortens long addresses only', () => {
    expect(shortAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe('TR7NHqje…gjLj6t');
    expect(shortAddress('r123')).toBe('r123');
  });
});
