/**
 * The shapes of the reference data (coins' pricing, supported tokens, token networks), below both the cache that holds
 * them and the repositories that read them, so neither side imports the other for a type.
 */

/** What a price quote needs (not the market history): read by every money operation. */
export interface CoinPricing {
  id: string;
  symbol: string;
  name: string;
  currentPrice: string;
  lastUpdated: Date;
  source: 'live' | 'snapshot' | 'manual';
  manualPrice: boolean;
}

/** A supported token as the wallet shows it: its coin's market data and its deposit address. */
export interface WalletToken {
  id: string;
  symbol: string;
  name: string;
  currentPrice: string;
  marketCapRank: number | null;
  address: string | null;
}

/** A live supported token with its coin's market data and its kind. */
export interface LiveToken extends WalletToken {
  kind: 'market' | 'custom';
}

export interface TokenNetworkRecord {
  id: string;
  tokenId: string;
  network: string;
  address: string | null;
  /** EVM networks: the token's contract (ERC-20), null for a native coin; its decimals read from the chain. */
  contractAddress: string | null;
  contractDecimals: number | null;
  createdAt: Date;
}

/** A network row with its (live) token's coin id and kind. */
export interface TokenNetworkWithToken extends TokenNetworkRecord {
  coinId: string;
  kind: 'market' | 'custom';
}

/** A row of the fee schedule (drizzle/0050_fees.sql), as the hot path reads it; `*` is the default row. */
export interface FeeScheduleEntry {
  token: string;
  swapSpreadBps: number | null;
  swapFeeBps: number | null;
  swapFeeMinUsd: string | null;
  withdrawalFee: string | null;
  /** Per network: the withdrawal fee and its mode, overriding `withdrawalFee` there (migration 0062). */
  withdrawalNetworks: Record<string, { mode: 'network' | 'fixed'; fee: string }> | null;
}
