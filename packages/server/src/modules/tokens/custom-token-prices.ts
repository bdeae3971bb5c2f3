import type { EditCustomTokenDto } from '@coinpurse/contract';
import Decimal from 'decimal.js';
import { InvalidInputError } from '../../common/errors';
import type { CoinRecord } from '../market/coins.repository';

/** A custom token's manual prices (USD, and the 24 h change in percent) as exact decimal strings. */
export interface ManualPrices {
  current?: string;
  low?: string;
  high?: string;
  change?: string;
}

type CoinPrices = Pick<CoinRecord, 'currentPrice' | 'low24h' | 'high24h' | 'priceChangePercentage24h'>;

/** Exact decimals (already shape-checked by the DTO); price > 0 and low ≤ high. */
export function checkPrices(input: ManualPrices): ManualPrices {
  const current = input.current !== undefined ? new Decimal(input.current) : undefined;
  if (!current || current.lte(0)) throw new InvalidInputError('Current price must be greater than 0.');
  const low = input.low !== undefined ? new Decimal(input.low) : undefined;
  const high = input.high !== undefined ? new Decimal(input.high) : undefined;
  if (low && high && low.gt(high)) throw new InvalidInputError('Low 24h cannot be above High 24h.');
  return {
    current: current.toFixed(),
    low: low?.toFixed(),
    high: high?.toFixed(),
    change: input.change !== undefined ? new Decimal(input.change).toFixed() : undefined,
  };
}

/** The prices after an edit, checked: a price the edit gives replaces the coin's, one it leaves out is kept. */
export function editedPrices(body: EditCustomTokenDto, coin: CoinPrices): ManualPrices {
  return checkPrices({
    current: text(body.current_price) ?? coin.currentPrice,
    low: body.low_24 !== undefined ? text(body.low_24) : (coin.low24h ?? undefined),
    high: body.high_24 !== undefined ? text(body.high_24) : (coin.high24h ?? undefined),
    change: body.price_change_percentage_24h !== undefined ? text(body.price_change_percentage_24h) : (coin.priceChangePercentage24h ?? undefined),
  });
}

/** Whether any price differs from the coin's, as numbers (1.50 = 1.5). */
export function pricesDiffer(prices: ManualPrices, coin: CoinPrices): boolean {
  return (
    !sameDecimal(prices.current, coin.currentPrice) ||
    !sameDecimal(prices.low, coin.low24h) ||
    !sameDecimal(prices.high, coin.high24h) ||
    !sameDecimal(prices.change, coin.priceChangePercentage24h)
  );
}

/** The coin columns of checked prices (absent ones cleared). */
export function priceColumns(prices: ManualPrices): Pick<CoinRecord, 'currentPrice' | 'low24h' | 'high24h' | 'priceChangePercentage24h'> {
  return { currentPrice: prices.current!, low24h: prices.low ?? null, high24h: prices.high ?? null, priceChangePercentage24h: prices.change ?? null };
}

function text(value: string | number | undefined): string | undefined {
  return value === undefined ? undefined : String(value);
}

function sameDecimal(a: string | undefined | null, b: string | undefined | null): boolean {
  if (a === undefined || a === null || b === undefined || b === null) return (a ?? null) === (b ?? null);
  return new Decimal(a).eq(b);
}
