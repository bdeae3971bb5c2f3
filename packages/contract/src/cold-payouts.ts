import { ApiProperty } from '@nestjs/swagger';
import { PAYOUT_STATES, type PayoutState } from './payouts';
import { RequiredText } from './text';

/** Back-office routes of the cold path (under `/api`): payouts above the hot limits, signed offline by an admin. */
export const ColdPayoutRoutes = {
  list: 'admin/payouts/cold',
  unsigned: 'admin/payouts/cold/:transactionId/unsigned',
  signed: 'admin/payouts/cold/:transactionId/signed',
  /** Discard the prepared unsigned transaction: the payout waits for its cold signature again, a new one can be prepared. */
  discard: 'admin/payouts/cold/:transactionId/discard',
  /** Fail the withdrawal instead: the held amount goes back to the customer with the reason. */
  fail: 'admin/payouts/cold/:transactionId/fail',
} as const;

/** Longest reason an admin gives for failing a cold payout (it is shown to the customer and mailed). */
export const COLD_FAIL_REASON_MAX_LENGTH = 500;

/** Longest signed upload accepted (characters; the API reads bodies up to 100 KB): a PSBT of dozens of inputs, in base64. */
export const SIGNED_UPLOAD_MAX_LENGTH = 90_000;

/** A payout paid from the cold side: waiting for its offline signature, or signed and on its way. */
export class ColdPayoutDto {
  @ApiProperty({ format: 'uuid', description: 'The withdrawal (transaction id)' })
  transactionId: string;

  @ApiProperty({ example: 'litecoin' })
  network: string;

  @ApiProperty({ example: 'litecoin' })
  token: string;

  @ApiProperty({ example: 'LTC', description: "The token's symbol, in capitals" })
  symbol: string;

  @ApiProperty({ type: String, nullable: true, example: 'customer@example.com' })
  userEmail: string | null;

  @ApiProperty({ description: 'The approved destination address' })
  address: string;

  @ApiProperty({ example: '2.50000000', description: 'The approved amount, in the token' })
  coinAmount: string;

  @ApiProperty({ enum: PAYOUT_STATES })
  state: PayoutState;

  @ApiProperty({ example: 'above the hot limit of 1 LTC per payout', description: 'Why it is paid from the cold side' })
  reason: string;

  @ApiProperty({ description: 'Its unsigned transaction was handed out (the same one on every download)' })
  prepared: boolean;

  @ApiProperty({ type: String, nullable: true, description: 'The chain transaction id, once a signed upload was accepted' })
  txHash: string | null;

  @ApiProperty({ type: String, nullable: true, example: '0.00001410', description: 'Network fee in the token: the prepared one, then the signed one' })
  fee: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The last problem (preparing, broadcasting)' })
  lastError: string | null;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;
}

/** The unsigned transaction of a cold payout, to be signed offline. */
export class UnsignedPayoutDto {
  @ApiProperty({ format: 'uuid' })
  transactionId: string;

  @ApiProperty({ example: 'litecoin' })
  network: string;

  @ApiProperty({
    enum: ['psbt', 'eip1559'],
    description: 'psbt: a BIP 174 PSBT in base64 (UTXO family); eip1559: an unsigned EIP-1559 transaction, 0x-prefixed hex (EVM family)',
  })
  format: 'psbt' | 'eip1559';

  @ApiProperty({ description: 'The unsigned transaction: the same bytes on every download' })
  unsignedTx: string;

  @ApiProperty({ example: 'withdrawal-3f2a….psbt', description: 'A file name for the download' })
  fileName: string;

  @ApiProperty({ description: 'Pays from: the watch-only cold wallet (UTXO) or the cold address (EVM)' })
  from: string;

  @ApiProperty({ description: 'The approved destination address' })
  address: string;

  @ApiProperty({ example: '2.50000000', description: 'The approved amount, in the token' })
  coinAmount: string;

  @ApiProperty({ example: '0.00001410', description: 'Network fee, in the token (EVM: the most it can cost, gas × max fee)' })
  fee: string;

  @ApiProperty({ type: Number, nullable: true, description: 'EVM: the nonce reserved for it' })
  nonce: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 1, description: 'EVM: the chain id' })
  chainId: number | null;
}

export class SignedPayoutUploadDto {
  @ApiProperty({
    maxLength: SIGNED_UPLOAD_MAX_LENGTH,
    description:
      'The signed transaction: UTXO family a signed PSBT (base64 or hex) or the final raw transaction (hex); EVM family the signed EIP-1559 transaction (0x hex)',
  })
  @RequiredText('The signed transaction is required.', SIGNED_UPLOAD_MAX_LENGTH, 'The signed transaction is too long.')
  signedTx: string;
}

/** Fail a cold payout instead of signing it: the reason is shown to the customer, mailed and audited. */
export class FailColdPayoutDto {
  @ApiProperty({ maxLength: COLD_FAIL_REASON_MAX_LENGTH, example: 'The cold wallet is being moved; please request the withdrawal again next week.' })
  @RequiredText('A reason is required.', COLD_FAIL_REASON_MAX_LENGTH, `The reason must be at most ${COLD_FAIL_REASON_MAX_LENGTH} characters.`)
  reason: string;
}
