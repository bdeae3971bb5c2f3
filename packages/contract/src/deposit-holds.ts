import { ApiProperty } from '@nestjs/swagger';
import { RequiredText } from './text';

/**
 * Back-office routes of held chain deposits (under `/api`): deposits confirmed but kept off the customer's balance —
 * above their verification level's deposit limit, or sent from a sanctioned address — and an admin's release.
 */
export const DepositHoldRoutes = {
  holds: 'admin/chain/deposit-holds',
  release: 'admin/chain/deposit-holds/:id/release',
} as const;

export const DEPOSIT_HOLDS = ['limit', 'sanctions'] as const;
export type DepositHoldKind = (typeof DEPOSIT_HOLDS)[number];

/** A held chain deposit, as the back office sees it. */
export class HeldDepositDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;

  @ApiProperty({ example: 'litecoin' })
  network: string;

  @ApiProperty({ description: 'Chain transaction id' })
  txHash: string;

  @ApiProperty({ example: 0 })
  outputIndex: number;

  @ApiProperty({ format: 'uuid' })
  userId: string;

  @ApiProperty({ example: 'customer@example.com' })
  userEmail: string;

  @ApiProperty({ example: 'litecoin' })
  token: string;

  @ApiProperty({ example: 'LTC' })
  symbol: string;

  @ApiProperty({ example: '12.5', description: 'Exact amount, without trailing zeros' })
  amount: string;

  @ApiProperty({ example: 1250.5, description: 'Its USD value when it was found (the value the limit counts)' })
  usdAmount: number;

  @ApiProperty({
    enum: DEPOSIT_HOLDS,
    description:
      "limit: above the customer's verification level's deposit limit (released by the watcher once the limit allows it, or by an admin); sanctions: sent from a sanctioned address (the account frozen; released only by an admin)",
  })
  hold: DepositHoldKind;

  @ApiProperty({ example: "Held: above the customer's verification level's deposit limit" })
  holdText: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  heldAt: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The History row (type deposit, pending while held)' })
  transactionId: string | null;
}

/** Why an admin releases a held deposit: kept in the audit log. */
export class ReleaseDepositHoldDto {
  @ApiProperty({ maxLength: 500, example: 'Verified by phone; source of funds documented.' })
  @RequiredText('A reason is required.', 500, 'The reason must be at most 500 characters.')
  reason: string;
}

export class DepositHoldReleasedDto {
  @ApiProperty({ example: '12.50000000 LTC was released to customer@example.com.' })
  message: string;
}
