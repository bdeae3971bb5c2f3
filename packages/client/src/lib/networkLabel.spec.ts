import { describe, expect, it } from 'vitest';
import { networkLabel } from './networkLabel';

const NETWORKS = [
  { id: 'ethereum', name: 'Ethereum (ERC-20)', shortName: 'Ethereum', nativeCoins: ['ethereum'] },
  { id: 'litecoin', name: 'Litecoin', shortName: 'Litecoin', nativeCoins: ['litecoin'] },
];

describe('networkLabel', () => {
  it('names ETH on "Ethereum", USDT on "Ethereum (ERC-20)", the network alone on its chain name', () => {
    expect(networkLabel(NETWORKS, 'ethereum', 'ethereum')).toBe('Ethereum');
    expect(networkLabel(NETWORKS, 'ethereum', 'tether')).toBe('Ethereum (ERC-20)');
    expect(networkLabel(NETWORKS, 'ethereum')).toBe('Ethereum');
    expect(networkLabel(NETWORKS, 'litecoin', 'litecoin')).toBe('Litecoin');
  });

  it('keeps an id it does not know, and the id while the networks load', () => {
    expect(networkLabel(NETWORKS, 'moonbeam', 'glimmer')).toBe('moonbeam');
    expect(networkLabel(undefined, 'ethereum', 'ethereum')).toBe('ethereum');
  });
});
