import { describe, expect, it } from 'vitest';
import { nativeCoinsOf, tokenNetworkName } from './networks';

describe('network labels', () => {
  it("names a network's own coin by the chain, any other token by the chain and its token standard", () => {
    expect(tokenNetworkName('ethereum', 'ethereum')).toBe('Ethereum');
    expect(tokenNetworkName('ethereum', 'tether')).toBe('Ethereum (ERC-20)');
    expect(tokenNetworkName('tron', 'tron')).toBe('Tron');
    expect(tokenNetworkName('tron', 'tether')).toBe('Tron (TRC-20)');
    expect(tokenNetworkName('bsc', 'binancecoin')).toBe('BNB Smart Chain');
    expect(tokenNetworkName('bsc', 'tether')).toBe('BNB Smart Chain (BEP-20)');
    expect(tokenNetworkName('litecoin', 'litecoin')).toBe('Litecoin');
    // A network this registry does not know (an old row) keeps its raw value.
    expect(tokenNetworkName('moonbeam', 'glimmer')).toBe('moonbeam');
    expect(tokenNetworkName(null, 'bitcoin')).toBeNull();
  });

  it("lists a network's own coins", () => {
    expect(nativeCoinsOf('polygon')).toEqual(['matic-network', 'polygon-ecosystem-token']);
    expect(nativeCoinsOf('ethereum')).toEqual(['ethereum']);
    expect(nativeCoinsOf('tron')).toEqual(['tron']);
  });
});
