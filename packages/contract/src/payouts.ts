import { ApiProperty } from '@nestjs/swagger';

/** Where a withdrawal the platform pays on chain stands (its payout's state; `payoutState` of a transaction). */
export const PAYOUT_STATES = ['approved', 'awaiting_funds', 'awaiting_cold_signature', 'signed', 'broadcast', 'confirming', 'completed', 'failed'] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];

/** Withdrawals to the chain (under `/api`). */
export const PayoutRoutes = {
  /** The network fee of a send, for the Send confirm step (networks the platform pays out on by itself). */
  networkFee: 'crypto/network-fee/:tokenId',
} as const;

/** What a send of `coinAmount` would cost on the chain and what the recipient gets. */
export class NetworkFeeDto {
  @ApiProperty({ example: 'litecoin' })
  token: string;

  @ApiProperty({ example: 'litecoin' })
  network: string;

  @ApiProperty({ example: '0.12500000', description: 'The amount asked for, exact decimal string' })
  coinAmount: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '0.00001410',
    description: 'Estimated network fee of the payment, in the token; null when the node gives no estimate',
  })
  estimatedFee: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '0.00010000',
    description: "The node's fee rate (estimatesmartfee, coins per 1,000 virtual bytes, for confirmation within `targetBlocks`); null without enough data",
  })
  feeRate: string | null;

  @ApiProperty({ example: 6, description: 'Blocks within which the estimate aims to confirm' })
  targetBlocks: number;

  @ApiProperty({ example: '0.12500000', description: 'What the recipient gets: the full amount (the platform pays the network fee)' })
  recipientGets: string;

  @ApiProperty({ enum: ['platform'], description: 'Who pays the network fee' })
  feePaidBy: 'platform';
}
