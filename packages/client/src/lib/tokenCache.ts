/** Spec §9: the wallet token cache (`walletTokens`) is reset every 2 days, tracked by `lastClearTime`. */
export const WALLET_TOKENS_KEY = 'walletTokens';
export const LAST_CLEAR_TIME_KEY = 'lastClearTime';
export const CACHE_CLEAR_INTERVAL_MS = 172_800_000;

/** True when `lastClearTime` is missing, unreadable, in the future or older than 2 days. */
export function isCacheClearDue(lastClearTime: string | null, now: number): boolean {
  if (!lastClearTime) return true;
  const last = Number(lastClearTime);
  if (!Number.isFinite(last) || last > now) return true;
  return now - last >= CACHE_CLEAR_INTERVAL_MS;
}

/** Clears the cached token list when due and stamps the time; returns whether it cleared. */
export function clearWalletTokenCacheIfDue(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>, now = Date.now()): boolean {
  if (!isCacheClearDue(storage.getItem(LAST_CLEAR_TIME_KEY), now)) return false;
  storage.removeItem(WALLET_TOKENS_KEY);
  storage.setItem(LAST_CLEAR_TIME_KEY, String(now));
  return true;
}

export function readCachedTokens<T>(storage: Pick<Storage, 'getItem'>): T[] | undefined {
  try {
    const raw = storage.getItem(WALLET_TOKENS_KEY);
    const parsed = raw ? (JSON.parse(raw) as unknown) : undefined;
    return Array.isArray(parsed) && parsed.length ? (parsed as T[]) : undefined;
  } catch {
    return undefined;
  }
}

export function writeCachedTokens<T>(storage: Pick<Storage, 'setItem'>, tokens: T[]): void {
  try {
    storage.setItem(WALLET_TOKENS_KEY, JSON.stringify(tokens));
  } catch {
    // storage full or disabled: the list is simply fetched again next time
  }
}
