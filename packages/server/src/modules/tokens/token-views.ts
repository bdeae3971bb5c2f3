import type { AdminTokenListItemDto, CustomTokenDto } from '@coinpurse/contract';
import { tokenNetworkName } from '../../common/networks';
import Decimal from 'decimal.js';
import type { CoinRecord } from '../market/coins.repository';
import type { SupportedTokenRecord } from '../market/supported-tokens.repository';
import type { TokenNetworkWithToken } from '../networks/token-networks.repository';

// The shapes the admin token routes answer and the audit rows keep.

/** A get-tokens row: one network of a market token, named, and whether each customer deposits to an address of their own. */
export function adminRow(row: TokenNetworkWithToken, coin: { name: string; symbol: string }, perCustomerAddresses: boolean): AdminTokenListItemDto {
  return {
    _id: row.id,
    name: row.coinId,
    address: row.address,
    network: row.network,
    contractAddress: row.contractAddress ?? null,
    coinName: coin.name,
    symbol: coin.symbol,
    networkName: tokenNetworkName(row.network, row.coinId) ?? row.network,
    perCustomerAddresses,
  };
}

/** A token record as an audit row keeps it. */
export function tokenView(token: SupportedTokenRecord): Record<string, unknown> {
  return { _id: token.id, name: token.coinId, kind: token.kind, address: token.address };
}

/** A custom token with its coin's name, symbol, image and manual prices. */
export function customView(
  token: SupportedTokenRecord,
  coin: Pick<CoinRecord, 'id' | 'name' | 'symbol' | 'image' | 'currentPrice' | 'low24h' | 'high24h' | 'priceChangePercentage24h'>,
): CustomTokenDto {
  return {
    _id: token.id,
    id: coin.id,
    name: coin.name,
    address: token.address,
    symbol: coin.symbol,
    image: coin.image,
    ...(priceView(coin) as { current_price: string; low_24h: string | null; high_24h: string | null; price_change_percentage_24h: string | null }),
  };
}

/** A coin's manual prices, as exact decimals without trailing zeros. */
export function priceView(coin: Pick<CoinRecord, 'currentPrice' | 'low24h' | 'high24h' | 'priceChangePercentage24h'>): Record<string, unknown> {
  return {
    current_price: normal(coin.currentPrice),
    low_24h: normal(coin.low24h),
    high_24h: normal(coin.high24h),
    price_change_percentage_24h: normal(coin.priceChangePercentage24h),
  };
}

function normal(value: string | null): string | null {
  return value === null ? null : new Decimal(value).toFixed();
}
