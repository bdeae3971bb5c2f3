import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Where a withdrawal the platform pays on chain stands (its payout's state; `payoutState` of a transaction). */
export const PAYOUT_STATES = ['approved', 'awaiting_funds', 'awaiting_cold_signature', 'signed', 'broadcast', 'confirming', 'completed', 'failed'] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];

/** Withdrawals to the chain (under `/api`). */
export const PayoutRoutes = {
  /** The network fee of a send, for the Send confirm step (networks the platform pays out on by itself). */
  networkFee: 'crypto/network-fee/:tokenId',
} as const;

/**
 * What a send of `coinAmount` would cost on the chain and what the recipient gets: the customer pays the network fee
 * out of the amount (the fee is fixed when the payment is signed; the platform absorbs or keeps any later difference).
 */
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
    description: 'Estimated network fee of the payment, in the token (taken out of the amount); null when the node gives no estimate',
  })
  estimatedFee: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '0.00010000',
    description:
      "UTXO: the node's fee rate (estimatesmartfee, coins per 1,000 virtual bytes, for confirmation within `targetBlocks`). EVM: the next block's base fee plus the median tip of recent blocks (eth_feeHistory), coins per gas. Null without enough data",
  })
  feeRate: string | null;

  @ApiProperty({ example: 6, description: 'Blocks within which the estimate aims to confirm' })
  targetBlocks: number;

  @ApiPropertyOptional({ example: 21000, description: 'EVM: the gas the estimate assumes (a plain transfer of the coin)' })
  gasLimit?: number;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '0.12498590',
    description:
      'What the recipient gets: the amount less the withdrawal fee and the estimated network fee ("0" when they take it all); null without an estimate',
  })
  recipientGets: string | null;

  @ApiProperty({
    enum: ['customer', 'platform'],
    description:
      'Who pays the network fee: the customer, out of the amount (the coin of the network); the platform for ERC-20 tokens (its gas) and tokens it settles by hand: `estimatedFee` "0"',
  })
  feePaidBy: 'customer' | 'platform';

  @ApiProperty({
    example: '0.001',
    description: 'The fee schedule\'s withdrawal fee, in the token, taken out of the amount at Send ("0" without one); the network fee comes on top',
  })
  withdrawalFee: string;

  @ApiPropertyOptional({
    example: 'The amount does not cover the network fee of 0.000141 LTC.',
    description:
      'Present when Send would refuse this amount (400, the same text): the withdrawal fee or the network fee takes all of it, the recipient would get nothing',
  })
  refusal?: string;
}
