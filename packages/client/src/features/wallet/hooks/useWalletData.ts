import { useEffect, useMemo, useState } from 'react';
import { useGetWalletTokensQuery, type WalletToken } from '../../../api/endpoints';
import { useGetUserBalanceQuery } from '../../../api/generated/walletApi.generated';
import { useAppSelector } from '../../../core/hooks';
import { CACHE_CLEAR_INTERVAL_MS, clearWalletTokenCacheIfDue, readCachedTokens, writeCachedTokens } from '../../../lib/tokenCache';
import { buildWalletRows, type WalletRow } from '../lib/rows';

/** Checks the wallet token cache at start and on a 2-day timer (spec §4, §9). */
export function useTokenCacheClearing() {
  useEffect(() => {
    clearWalletTokenCacheIfDue(localStorage);
    const timer = setInterval(() => clearWalletTokenCacheIfDue(localStorage), CACHE_CLEAR_INTERVAL_MS);
    return () => clearInterval(timer);
  }, []);
}

/** Wallet tokens (cached under `walletTokens`, refreshed in the background) joined with the balance. */
export function useWalletData(): { tokens?: WalletToken[]; rows?: WalletRow[]; totalBalance?: number; ready: boolean } {
  const hasToken = useAppSelector((state) => Boolean(state.session.user?.token));
  const [cached] = useState(() => readCachedTokens<WalletToken>(localStorage));
  const tokensQuery = useGetWalletTokensQuery(undefined, { skip: !hasToken });
  const balanceQuery = useGetUserBalanceQuery(undefined, { skip: !hasToken });
  const tokens = tokensQuery.data ?? cached;

  useEffect(() => {
    if (tokensQuery.data?.length) writeCachedTokens(localStorage, tokensQuery.data);
  }, [tokensQuery.data]);
  useEffect(() => {
    if (tokensQuery.error) console.error('Could not load wallet tokens', tokensQuery.error);
    if (balanceQuery.error) console.error('Could not load the balance', balanceQuery.error);
  }, [tokensQuery.error, balanceQuery.error]);

  const rows = useMemo(() => (tokens && balanceQuery.data ? buildWalletRows(tokens, balanceQuery.data) : undefined), [tokens, balanceQuery.data]);
  return { tokens, rows, totalBalance: balanceQuery.data?.totalBalance, ready: Boolean(rows) };
}
