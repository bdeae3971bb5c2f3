import { TokenNetworkDto } from './networks';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Market routes (under `/api`): paths exactly as the product spec names them; market-status is beyond the spec. */
export const MarketRoutes = {
  getCrypto: 'crypto/get-crypto',
  getWalletTokens: 'crypto/get-wallet-tokens',
  marketStatus: 'crypto/market-status',
} as const;

export class SparklineDto {
  @ApiProperty({ type: [Number], description: '7 days of hourly USD prices, oldest first (empty when unknown)' })
  price: number[];
}

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

  @ApiProperty({ type: SparklineDto })
  sparkline_in_7d: SparklineDto;

  @ApiProperty({ description: 'true for custom tokens, priced by an administrator' })
  manual_price: boolean;
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
