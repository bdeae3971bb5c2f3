import { describe, expect, it } from 'vitest';
import { CACHE_CLEAR_INTERVAL_MS, clearWalletTokenCacheIfDue, isCacheClearDue, readCachedTokens, writeCachedTokens } from './tokenCache';

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  };
}

describe('wallet token cache clearing (2 days, spec §4 §9)', () => {
  const now = 1_800_000_000_000;
  it('the interval is 172800000 ms', () => expect(CACHE_CLEAR_INTERVAL_MS).toBe(172_800_000));
  it('is due when lastClearTime is missing, unreadable or in the future', () => {
    expect(isCacheClearDue(null, now)).toBe(true);
    expect(isCacheClearDue('garbage', now)).toBe(true);
    expect(isCacheClearDue(String(now + 60_000), now)).toBe(true);
  });
  it('is due at 2 days, not before', () => {
    expect(isCacheClearDue(String(now - CACHE_CLEAR_INTERVAL_MS + 1), now)).toBe(false);
    expect(isCacheClearDue(String(now - CACHE_CLEAR_INTERVAL_MS), now)).toBe(true);
    expect(isCacheClearDue(String(now - 3 * CACHE_CLEAR_INTERVAL_MS), now)).toBe(true);
  });
  it('clears walletTokens and stamps lastClearTime when due', () => {
    const storage = memoryStorage({ walletTokens: '[{"id":"bitcoin"}]' });
    expect(clearWalletTokenCacheIfDue(storage, now)).toBe(true);
    expect(storage.map.has('walletTokens')).toBe(false);
    expect(storage.map.get('lastClearTime')).toBe(String(now));
  });
  it('keeps a fresh cache', () => {
    const storage = memoryStorage({ walletTokens: '[{"id":"bitcoin"}]', lastClearTime: String(now - 1000) });
    expect(clearWalletTokenCacheIfDue(storage, now)).toBe(false);
    expect(readCachedTokens(storage)).toEqual([{ id: 'bitcoin' }]);
  });
  it('reads only a non-empty array back', () => {
    expect(readCachedTokens(memoryStorage({ walletTokens: '{oops' }))).toBeUndefined();
    expect(readCachedTokens(memoryStorage({ walletTokens: '[]' }))).toBeUndefined();
    const storage = memoryStorage();
    writeCachedTokens(storage, [{ id: 'tether' }]);
    expect(readCachedTokens(storage)).toEqual([{ id: 'tether' }]);
  });
});
