import { TokenNetworkDto } from './networks';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';

/** Market routes (under `/api`): paths exactly as the product spec names them; market-status is beyond the spec. */
export const MarketRoutes = {
  getCrypto: 'crypto/get-crypto',
  getWalletTokens: 'crypto/get-wallet-tokens',
  marketStatus: 'crypto/market-status',
  priceHistory: 'crypto/price-history/:coinId',
} as const;

/** Chart ranges of the price history (beyond the spec). */
export const PRICE_HISTORY_RANGES = ['1d', '7d', '30d', '1y', 'all'] as const;
export type PriceHistoryRange = (typeof PRICE_HISTORY_RANGES)[number];

/** A market coin, CoinGecko-shaped. Numbers are JSON numbers (display values; money operations use the server's exact prices). */
export class MarketCoinDto {
  @ApiProperty({ example: 'bitcoin', description: 'Coin id (CoinGecko id, or an admin-made custom token id)' })
  id: string;

  @ApiProperty({ example: 'Bitcoin' })
  name: string;

  @ApiProperty({ example: 'btc' })
  symbol: string;

  @ApiProperty({ example: 'btc.png', description: 'A full https URL, or a file name served under `/images/`' })
  image: string;

  @ApiProperty({ example: 97234.12 })
  current_price: number;

  @ApiProperty({ type: Number, nullable: true, example: 95253.8 })
  low_24h: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 98051.2 })
  high_24h: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 1.84 })
  price_change_percentage_24h: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 1925000000000 })
  market_cap: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 1, description: 'null for custom tokens (listed after market coins)' })
  market_cap_rank: number | null;

  @ApiProperty({ format: 'date-time', description: 'When this price was observed (provider time, snapshot time, or when an admin set it)' })
  last_updated: string;

  @ApiProperty({ description: 'true for custom tokens, priced by an administrator' })
  manual_price: boolean;
}

/** get-crypto's optional page size (beyond the spec): the home page asks for the first 8 only. */
export class MarketListQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000, description: 'At most this many coins, 1 to 1000 (default: all)', example: 8 })
  @IsOptional()
  @IsString({ message: 'Limit must be a whole number from 1 to 1000.' })
  @Matches(/^[1-9]\d{0,3}$/, { message: 'Limit must be a whole number from 1 to 1000.' })
  limit?: string;
}

export class PriceHistoryQueryDto {
  @ApiPropertyOptional({ enum: PRICE_HISTORY_RANGES, description: 'Time range (default 7d)' })
  @IsOptional()
  @IsIn(PRICE_HISTORY_RANGES, { message: 'Range must be one of 1d, 7d, 30d, 1y or all.' })
  range?: PriceHistoryRange;
}

/** Price history for a chart: `[unixMs, priceUsd]` pairs, oldest first. */
export class PriceHistoryDto {
  @ApiProperty({ example: 'bitcoin' })
  coinId: string;

  @ApiProperty({ enum: PRICE_HISTORY_RANGES })
  range: PriceHistoryRange;

  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
    description: '[unix time in ms, USD price] pairs, oldest first; 5-minute points for a day, hourly for a week and a month, daily beyond',
    example: [
      [1763719200000, 95253.8],
      [1763722800000, 95410.2],
    ],
  })
  points: [number, number][];
}

/** A token customers can hold: the market coin fields plus the deposit address set by an admin. */
export class WalletTokenDto extends MarketCoinDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Deposit address; null until an administrator sets one',
    example: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  })
  address: string | null;

  @ApiProperty({
    type: [TokenNetworkDto],
    description: "The token's networks with their deposit addresses; the first is the default (its address is `address`)",
  })
  networks: TokenNetworkDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Deposits are not set up for the Bitcoin network yet.',
    description: 'What to tell a customer while `address` is null (deposits on the default network are not possible yet); null once it is set',
  })
  depositNote: string | null;
}

export class MarketStatusDto {
  @ApiProperty({ enum: ['live', 'snapshot'], description: 'live: prices come from the provider; snapshot: the bundled offline snapshot' })
  source: 'live' | 'snapshot';

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Newest market price time' })
  asOf: string | null;

  @ApiProperty({ description: 'true when the newest market price is older than PRICE_MAX_AGE_SECONDS' })
  stale: boolean;

  @ApiProperty({ description: 'Money operations refuse stale prices (production only); elsewhere they proceed on labelled snapshot prices' })
  staleRefused: boolean;

  @ApiProperty({ description: 'Number of coins in the market list' })
  coins: number;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Last successful provider refresh' })
  lastSuccessAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Last refresh attempt (any instance)' })
  lastAttemptAt: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Why the last attempt failed' })
  lastError: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'No provider call before this time (rate limit or errors)' })
  backoffUntil: string | null;

  @ApiProperty({ description: 'Whether this instance schedules refreshes' })
  refreshEnabled: boolean;

  @ApiProperty({ example: 60 })
  refreshSeconds: number;
}
