import { ApiProperty } from '@nestjs/swagger';

/** The back office's Reserves screen (under `/api`). */
export const ReservesRoutes = {
  reserves: 'admin/reserves',
} as const;

/** One cold (watch-only) address and what it holds of the token. */
export class ReserveColdAddressDto {
  @ApiProperty({ example: 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh' })
  address: string;

  @ApiProperty({ example: '120.5', description: 'Exact amount of the token on the address' })
  balance: string;
}

/** What the platform holds of one token on one network. */
export class ReserveNetworkDto {
  @ApiProperty({ example: 'litecoin' })
  network: string;

  @ApiProperty({ example: 'Litecoin' })
  name: string;

  @ApiProperty({
    enum: ['read', 'not_connected', 'not_readable', 'unreachable'],
    description:
      'read: the figures below come from the node; not_connected: the network has no node (CHAIN_<NETWORK>_RPC_URL); not_readable: the node cannot tell this token (e.g. no token contract set); unreachable: the node did not answer (see note)',
  })
  state: 'read' | 'not_connected' | 'not_readable' | 'unreachable';

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why figures are missing, or how they were read (e.g. deposit addresses inside the hot wallet), in words for people',
  })
  note: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'operate/signer.md',
    description: "The operator guide's page that explains the note, under the repository's docs folder (the app serves it at /docs/<guide>)",
  })
  guide: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'CHAIN_ETHEREUM_SIGNER_URL',
    description: 'The setting that changes what the note says, when there is one',
  })
  setting: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'hot',
    description: 'The hot wallet read: the node wallet (CHAIN_<NETWORK>_WALLET) or the hot address of the key file; null when none is configured',
  })
  hotWallet: string | null;

  @ApiProperty({ type: String, nullable: true, example: '12.5', description: 'Held by the hot wallet; null when not read' })
  hot: string | null;

  @ApiProperty({ type: String, nullable: true, example: '3.2', description: "On customers' deposit addresses; null when not read" })
  deposits: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '3.2',
    description:
      'Of `deposits`, the part already inside `hot` (UTXO: deposit addresses whose keys the node wallet holds, its descriptor matching the XPUB): counted once; null when not read',
  })
  depositsInHot: string | null;

  @ApiProperty({ example: 42, description: 'Deposit addresses allocated to customers on the network' })
  depositAddresses: number;

  @ApiProperty({ type: String, nullable: true, example: '100', description: 'On the cold addresses (CHAIN_<NETWORK>_COLD_ADDRESSES); null when not read' })
  cold: string | null;

  @ApiProperty({ type: [ReserveColdAddressDto] })
  coldAddresses: ReserveColdAddressDto[];

  @ApiProperty({ type: String, nullable: true, example: '115.7', description: 'hot + deposits − depositsInHot + cold; null when not read' })
  total: string | null;
}

/** One token: what the platform holds on chain next to what it owes customers. */
export class ReserveTokenDto {
  @ApiProperty({ example: 'litecoin', description: 'Token id (CoinGecko coin id)' })
  token: string;

  @ApiProperty({ example: 'ltc' })
  symbol: string;

  @ApiProperty({ example: 'Litecoin' })
  name: string;

  @ApiProperty({ type: [ReserveNetworkDto], description: "The token's networks, each read from its node or marked why not" })
  networks: ReserveNetworkDto[];

  @ApiProperty({ type: String, nullable: true, example: '115.7', description: 'The sum of the networks read; null when none was read' })
  holdings: string | null;

  @ApiProperty({ description: 'Every network of the token was read: holdings are complete (only then is a shortfall alerted)' })
  complete: boolean;

  @ApiProperty({ example: '98.1', description: "Customers' balances (ledger)" })
  customerBalance: string;

  @ApiProperty({ example: '2.4', description: 'Withdrawals requested and not approved yet (held, ledger)' })
  pendingWithdrawals: string;

  @ApiProperty({ example: '100.5', description: 'customerBalance + pendingWithdrawals' })
  liabilities: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '15.2',
    description: 'holdings − liabilities (negative: a shortfall); null when no holdings were read',
  })
  difference: string | null;

  @ApiProperty({ description: 'Holdings are complete and below liabilities' })
  shortfall: boolean;
}

export class ReservesDto {
  @ApiProperty({ type: [ReserveTokenDto] })
  tokens: ReserveTokenDto[];

  @ApiProperty({ format: 'date-time', description: 'When the nodes and the ledger were read' })
  asOf: string;
}
