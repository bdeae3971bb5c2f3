import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';

/** The operator's business (issue 34): the fee schedule and the revenue it earns, in the back office. */
export const FeesRoutes = {
  fees: 'admin/fees',
  feeRow: 'admin/fees/:token',
  revenue: 'admin/revenue',
  revenueExport: 'admin/revenue/export',
} as const;

/** The default row's token: the schedule of every token without a value of its own. */
export const FEE_DEFAULT_TOKEN = '*';

const DECIMAL = /^\d{1,20}(\.\d{1,18})?$/;
const USD = /^\d{1,15}(\.\d{1,8})?$/;

/**
 * How a withdrawal on a network is charged (migration 0062): `network` — the network fee passed through to the customer
 * (out of the amount) plus the withdrawal fee as a margin; `fixed` — the customer pays the withdrawal fee only, the
 * platform pays the network fee (the recipient gets the amount less the fee).
 */
export const WITHDRAWAL_FEE_MODES = ['network', 'fixed'] as const;
export type WithdrawalFeeMode = (typeof WITHDRAWAL_FEE_MODES)[number];

/** A token's withdrawal fee on one of its networks. */
export class WithdrawalNetworkFeeDto {
  @ApiProperty({ example: 'litecoin', description: 'The network id.' })
  network: string;

  @ApiProperty({ example: 'Litecoin', description: 'The network name.' })
  name: string;

  @ApiProperty({
    enum: WITHDRAWAL_FEE_MODES,
    nullable: true,
    description:
      "`network`: the network fee passed through plus `fee`; `fixed`: `fee` only. Null: not set (the token's `withdrawalFee`, network fee passed through).",
  })
  mode: WithdrawalFeeMode | null;

  @ApiProperty({ type: String, nullable: true, example: '0.001', description: 'Coins of the token; null: not set.' })
  fee: string | null;
}

/** A token's withdrawal fee on one network, as set. */
export class WithdrawalNetworkFeeUpdateDto {
  @ApiProperty({ example: 'litecoin' })
  @IsString({ message: 'network must be the id of one of the token’s networks.' })
  @MaxLength(60, { message: 'network must be the id of one of the token’s networks.' })
  network: string;

  @ApiProperty({ enum: WITHDRAWAL_FEE_MODES })
  @IsIn(WITHDRAWAL_FEE_MODES, { message: 'The withdrawal fee mode must be network (the network fee passed through plus the fee) or fixed.' })
  mode: WithdrawalFeeMode;

  @ApiProperty({ example: '0.001' })
  @Matches(DECIMAL, { message: 'The withdrawal fee must be an amount of coins such as 0.001.' })
  fee: string;
}

/** One row of the schedule: the default (`*`) or one token's; null: not set (the default's, else 0). */
export class FeeRowDto {
  @ApiProperty({ example: '*', description: '`*` for the default row, else a token id.' })
  token: string;

  @ApiProperty({ example: 'Litecoin', description: 'The token name (`Every token` for the default row).' })
  name: string;

  @ApiProperty({ type: Number, nullable: true, example: 50, description: 'Swap spread in basis points (50 = 0.5 %) when the house sells this token.' })
  swapSpreadBps: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 10, description: 'Swap fee in basis points of the USD value (default row only).' })
  swapFeeBps: number | null;

  @ApiProperty({ type: String, nullable: true, example: '0.5', description: 'The least swap fee in USD when one is charged (default row only).' })
  swapFeeMinUsd: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '0.001',
    description: "A withdrawal's fee in coins of the token, on top of the network fee (token rows).",
  })
  withdrawalFee: string | null;

  @ApiProperty({
    type: [WithdrawalNetworkFeeDto],
    description: 'Per network of the token, its withdrawal fee and mode, overriding `withdrawalFee` there (empty on the default row).',
  })
  withdrawalNetworks: WithdrawalNetworkFeeDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    example: '0',
    description: 'The house position may not go below this USD value (holdings minus what customers are owed).',
  })
  houseMinPositionUsd: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Coins held off chain of a token without a chain connection: its holdings (token rows).' })
  inventory: string | null;

  @ApiProperty({ type: Boolean, description: 'Whether the token is read on a chain (its holdings come from the reserves check).' })
  connected: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The house position now in coins (holdings minus liabilities); null when its holdings are unknown.',
  })
  position: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'When an administrator last set it (null: from the configuration, or never set).',
  })
  setAt: string | null;
}

export class FeeScheduleDto {
  @ApiProperty({ type: [FeeRowDto], description: 'The default row first, then every supported token.' })
  rows: FeeRowDto[];

  @ApiProperty({ description: 'Changes wait for a second admin (four-eyes is on).' })
  fourEyes: boolean;

  @ApiProperty({ example: 15, description: 'How long a swap quote holds (SWAP_QUOTE_SECONDS).' })
  quoteSeconds: number;
}

/** A change of one row; a field left out keeps its value, null clears it. */
export class FeeRowUpdateDto {
  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 0, maximum: 4999 })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsInt({ message: 'The spread must be a whole number of basis points.' })
  @Min(0, { message: 'The spread cannot be negative.' })
  @Max(4999, { message: 'The spread must be below 5000 basis points (50 %).' })
  swapSpreadBps?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 0, maximum: 4999 })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsInt({ message: 'The swap fee must be a whole number of basis points.' })
  @Min(0, { message: 'The swap fee cannot be negative.' })
  @Max(4999, { message: 'The swap fee must be below 5000 basis points (50 %).' })
  swapFeeBps?: number | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '0.5' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @Matches(USD, { message: 'The least swap fee must be a USD amount such as 0.50.' })
  swapFeeMinUsd?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '0.001' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @Matches(DECIMAL, { message: 'The withdrawal fee must be an amount of coins such as 0.001.' })
  withdrawalFee?: string | null;

  @ApiPropertyOptional({
    type: [WithdrawalNetworkFeeUpdateDto],
    nullable: true,
    description: 'The per-network withdrawal fees of the token, replaced whole (a network left out falls back to `withdrawalFee`); null clears them.',
  })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsArray({ message: 'withdrawalNetworks must be a list of {network, mode, fee}.' })
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => WithdrawalNetworkFeeUpdateDto)
  withdrawalNetworks?: WithdrawalNetworkFeeUpdateDto[] | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '0' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @Matches(USD, { message: 'The least house position must be a USD amount such as 1000.' })
  houseMinPositionUsd?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '12.5' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @Matches(DECIMAL, { message: 'The inventory must be an amount of coins such as 12.5.' })
  inventory?: string | null;
}

export class FeeRowChangedDto {
  @ApiProperty({ example: 'Fee schedule updated' })
  message: string;

  @ApiProperty({ type: FeeRowDto })
  row: FeeRowDto;
}

export const REVENUE_KINDS = ['swap_spread', 'swap_fee', 'withdrawal_fee', 'network_fees'] as const;
export type RevenueKind = (typeof REVENUE_KINDS)[number];

export class RevenueQueryDto {
  @ApiPropertyOptional({ example: '2026-11-01', description: 'First day (UTC), inclusive; default 30 days ago.' })
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'from must be a day such as 2026-11-01.' })
  from?: string;

  @ApiPropertyOptional({ example: '2026-11-30', description: 'Last day (UTC), inclusive; default today.' })
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'to must be a day such as 2026-11-30.' })
  to?: string;
}

/** What the house earned (or paid: network fees beyond what customers were charged, negative) per day, token and kind. */
export class RevenueRowDto {
  @ApiProperty({ example: '2026-11-27', description: 'The day (UTC).' })
  day: string;

  @ApiProperty({ example: 'litecoin' })
  token: string;

  @ApiProperty({ example: 'ltc' })
  symbol: string;

  @ApiProperty({ enum: REVENUE_KINDS, description: "swap_spread, swap_fee, withdrawal_fee, or network_fees (the platform's gain or cost on network fees)." })
  kind: RevenueKind;

  @ApiProperty({ example: '0.012', description: 'Coins (exact decimal string; negative: a cost).' })
  coinAmount: string;

  @ApiProperty({ example: '1.2', description: 'USD at the prices of each operation (exact decimal string, 8 decimals).' })
  usd: string;

  @ApiProperty({ example: 3, description: 'Postings counted.' })
  count: number;
}

export class RevenueDto {
  @ApiProperty({ example: '2026-11-01' })
  from: string;

  @ApiProperty({ example: '2026-11-30' })
  to: string;

  @ApiProperty({ type: [RevenueRowDto], description: 'Newest day first, then token and kind.' })
  rows: RevenueRowDto[];

  @ApiProperty({ example: '12.5', description: 'Σ usd of the rows.' })
  totalUsd: string;
}
