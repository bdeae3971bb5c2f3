import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Back-office routes of the deposits from the chain (under `/api`). */
export const ChainRoutes = {
  status: 'admin/chain/status',
  deposits: 'admin/chain/deposits',
} as const;

/** One network connected to a node, as its watcher last saw it. */
export class ChainStatusDto {
  @ApiProperty({ example: 'litecoin' })
  network: string;

  @ApiProperty({ example: 'Litecoin' })
  name: string;

  @ApiProperty({ enum: ['mainnet', 'testnet', 'regtest'] })
  chain: 'mainnet' | 'testnet' | 'regtest';

  @ApiProperty({ example: 'http://127.0.0.1:9332', description: 'The node, without credentials' })
  node: string;

  @ApiProperty({ description: 'The last poll reached the node and read what it asked for' })
  reachable: boolean;

  @ApiProperty({ type: Number, nullable: true, example: 2841234, description: "The node's best block height at the last poll" })
  nodeHeight: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 2841234, description: 'The last block the watcher read (its cursor)' })
  height: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 0, description: 'nodeHeight − height' })
  lagBlocks: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 12, description: "Seconds since the watcher's last block was made (its block time)" })
  lagSeconds: number | null;

  @ApiProperty({ example: 12 })
  requiredConfirmations: number;

  @ApiProperty({ example: 30 })
  pollSeconds: number;

  @ApiProperty({ example: 2, description: 'Deposits seen or confirming, not credited yet' })
  depositsConfirming: number;

  @ApiProperty({ example: 0, description: 'Credited deposits whose block was orphaned: an admin must review them' })
  depositsToReview: number;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastPollAt: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The last failed poll (cleared by the next good one)' })
  lastError: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastErrorAt: string | null;

  @ApiProperty({
    type: String,
    enum: ['traced', 'not traced'],
    nullable: true,
    description:
      "EVM networks: whether the node traces internal transfers (native value a contract sends on to a deposit address, read with debug_traceBlockByHash). 'not traced': the node has no tracing, such deposits are not seen. Null on other networks and before the first block read",
  })
  internalTransfers: 'traced' | 'not traced' | null;
}

export class ChainDepositDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;

  @ApiProperty({ example: 'litecoin' })
  network: string;

  @ApiProperty({ description: 'Chain transaction id' })
  txHash: string;

  @ApiProperty({
    description: "Output index (UTXO), log index (ERC-20), -1 (EVM: the transaction's own value) or -2, -3, … (EVM: internal transfers, in call order)",
  })
  outputIndex: number;

  @ApiProperty({ format: 'uuid' })
  userId: string;

  @ApiProperty({ example: 'litecoin' })
  token: string;

  @ApiProperty({ example: 'LTC', description: "The token's symbol, in capitals (its id for a coin no longer listed)" })
  symbol: string;

  @ApiProperty({ example: 'Litecoin', description: "The token's name (its id for a coin no longer listed)" })
  tokenName: string;

  @ApiProperty({ description: "The customer's deposit address" })
  address: string;

  @ApiProperty({ example: '1.23456789', description: 'Exact amount, without trailing zeros' })
  amount: string;

  @ApiProperty({
    enum: ['seen', 'confirming', 'held', 'credited', 'dropped', 'below_minimum'],
    description: 'held: confirmed, kept off the balance (see hold)',
  })
  state: 'seen' | 'confirming' | 'held' | 'credited' | 'dropped' | 'below_minimum';

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    enum: ['limit', 'sanctions'],
    description: "Why it is (or was) held: above the customer's deposit limit, or sent from a sanctioned address",
  })
  hold?: 'limit' | 'sanctions' | null;

  @ApiProperty({ example: 3 })
  confirmations: number;

  @ApiProperty({ example: 12 })
  requiredConfirmations: number;

  @ApiProperty({ type: Number, nullable: true })
  blockHeight: number | null;

  @ApiPropertyOptional({ type: String, nullable: true, enum: ['orphaned_after_credit'], description: 'Needs an admin: credited, then its block was orphaned' })
  review: 'orphaned_after_credit' | null;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['taken_back', 'kept'],
    description: "An admin's decision on the review: taken back from the customer, or kept (the loss accepted); null while it waits",
  })
  reviewResolution: 'taken_back' | 'kept' | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The History row (type deposit)' })
  transactionId: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}
