import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { TransactionQueryDto } from './wallet';

/**
 * Withdrawals waiting for someone (the admin dashboard counts each): review — pending, paid by the network's signer once
 * approved; manual-payout — no signer will pay it (a network without one, or a token the signer cannot pay): an admin
 * pays it from their own wallet and approves it with the transaction hash; awaiting-funds — approved, the hot wallet
 * cannot pay it yet; cannot-sign — approved, the signer could not sign it (a locked hot wallet, the signer or its node
 * down, a fee above its ceiling: payoutReason says which); cold-signature — approved above the hot limits, waiting for
 * an admin's offline signature. A withdrawal already waiting in the Approvals list counts there instead of under review
 * or manual-payout.
 */
export const WITHDRAWAL_QUEUES = ['review', 'manual-payout', 'awaiting-funds', 'cannot-sign', 'cold-signature'] as const;
export type WithdrawalQueue = (typeof WITHDRAWAL_QUEUES)[number];

export class AdminTransactionQueryDto extends TransactionQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only this customer' })
  @IsOptional()
  @IsString({ message: 'User id must be text.' })
  @MaxLength(64, { message: 'User not found.' })
  userId?: string;

  @ApiPropertyOptional({
    description: 'Part of the customer email or name (case-insensitive, prefix or substring), or a withdrawal txHash / transaction id (exact)',
    maxLength: 100,
  })
  @IsOptional()
  @IsString({ message: 'Search must be text.' })
  @MaxLength(100, { message: 'Search must be at most 100 characters.' })
  search?: string;

  @ApiPropertyOptional({
    enum: WITHDRAWAL_QUEUES,
    description:
      'Only the withdrawals waiting in this queue (the dashboard counts each). review: pending, the signer pays it once approved; manual-payout: no signer will pay it, an admin pays it by hand and approves it with the hash; awaiting-funds: the hot wallet cannot pay it yet; cannot-sign: the signer could not sign it (payoutReason says why); cold-signature: it waits for an offline signature. A withdrawal waiting in Approvals is in neither review nor manual-payout.',
  })
  @IsOptional()
  @IsIn(WITHDRAWAL_QUEUES, { message: 'Waiting must be review, manual-payout, awaiting-funds, cannot-sign or cold-signature.' })
  waiting?: WithdrawalQueue;
}
