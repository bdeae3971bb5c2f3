import { ApiProperty } from '@nestjs/swagger';
import { RequiredText } from './text';

/**
 * Back-office routes of the rest of the deposits from the chain (under `/api`): the customer behind a destination tag
 * (memo networks), and an admin's decision on a credited deposit whose block was orphaned.
 */
export const DepositReviewRoutes = {
  depositTag: 'admin/deposit-tags/:network/:tag',
  reviews: 'admin/chain/deposit-reviews',
  takeBack: 'admin/chain/deposit-reviews/:id/take-back',
  keep: 'admin/chain/deposit-reviews/:id/keep',
} as const;

/** The customer a destination tag (xrp) or memo (stellar) belongs to: who a deposit to the shared address is for. */
export class DepositTagOwnerDto {
  @ApiProperty({ example: 'xrp' })
  network: string;

  @ApiProperty({ example: '482913577', description: 'The tag or memo, as the customer was shown it' })
  tag: string;

  @ApiProperty({ example: 'Destination tag', description: "What the network calls it: 'Destination tag' (xrp) or 'Memo' (stellar)" })
  label: string;

  @ApiProperty({ format: 'uuid', description: 'The customer' })
  userId: string;

  @ApiProperty({ example: 'Ada Lovelace' })
  name: string;

  @ApiProperty({ example: 'ada@example.com' })
  email: string;

  @ApiProperty({ description: 'false: the account is deactivated (a deposit cannot be recorded for it)' })
  active: boolean;
}

/** A credited deposit whose block was orphaned, and what an admin decided about it. */
export class ChainDepositReviewDto {
  @ApiProperty({ format: 'uuid', description: 'The chain deposit' })
  _id: string;

  @ApiProperty({ example: 'litecoin' })
  network: string;

  @ApiProperty({ description: 'Chain transaction id' })
  txHash: string;

  @ApiProperty({ description: 'Output index (UTXO), log index (ERC-20) or -1 (EVM value transfer)' })
  outputIndex: number;

  @ApiProperty({ format: 'uuid' })
  userId: string;

  @ApiProperty({ example: 'ada@example.com' })
  userEmail: string;

  @ApiProperty({ example: 'litecoin' })
  token: string;

  @ApiProperty({ example: 'LTC' })
  symbol: string;

  @ApiProperty({ example: '0.75', description: 'The credited amount (exact)' })
  amount: string;

  @ApiProperty({ enum: ['credited', 'dropped'], description: 'credited until taken back (then dropped)' })
  state: string;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'The block the payment is in now: mined again after the reorganisation (null: in no block of the best chain)',
  })
  blockHeight: number | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The History row (type deposit)' })
  transactionId: string | null;

  @ApiProperty({ type: String, nullable: true, enum: ['taken_back', 'kept'], description: 'null: waiting for an admin' })
  resolution: 'taken_back' | 'kept' | null;

  @ApiProperty({ type: String, nullable: true, description: "The deciding admin's reason" })
  reason: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  resolvedAt: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'checker@example.com', description: 'The deciding admin' })
  resolvedBy: string | null;

  @ApiProperty({ format: 'date-time', description: 'When the deposit was first seen' })
  createdAt: string;
}

/** Why an admin decides as they do: kept with the decision, in the audit log, and (taking back) told to the customer. */
export class ResolveDepositReviewDto {
  @ApiProperty({ maxLength: 500, example: 'The payment was double-spent in the reorganisation; it never arrived.' })
  @RequiredText('A reason is required.', 500, 'The reason must be at most 500 characters.')
  reason: string;
}

export class DepositReviewResolvedDto {
  @ApiProperty({ example: 'The deposit was taken back.' })
  message: string;

  @ApiProperty({ type: ChainDepositReviewDto })
  review: ChainDepositReviewDto;
}
