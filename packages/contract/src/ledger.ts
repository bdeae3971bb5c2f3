import { ApiProperty } from '@nestjs/swagger';

/** The ledger's self-check and what the platform owes its customers (admin routes in WalletRoutes). */
export class LedgerTokenCheckDto {
  @ApiProperty()
  token: string;

  @ApiProperty({ description: 'Σ of all journal lines of this token: must be 0' })
  sum: string;

  @ApiProperty()
  ok: boolean;
}

export class LedgerAccountMismatchDto {
  @ApiProperty()
  accountId: string;

  @ApiProperty()
  token: string;

  @ApiProperty()
  balance: string;

  @ApiProperty()
  linesSum: string;
}

export class LedgerCheckDto {
  @ApiProperty({ description: 'true when every token sums to 0, every balance equals the sum of its lines and no customer balance is negative' })
  ok: boolean;

  @ApiProperty({ type: [LedgerTokenCheckDto] })
  tokens: LedgerTokenCheckDto[];

  @ApiProperty({ type: [LedgerAccountMismatchDto] })
  mismatches: LedgerAccountMismatchDto[];

  @ApiProperty()
  negativeCustomerBalances: number;

  @ApiProperty()
  accounts: number;

  @ApiProperty()
  lines: number;

  @ApiProperty({ format: 'date-time' })
  checkedAt: string;
}

export class TokenLiabilityDto {
  @ApiProperty({ example: 'bitcoin' })
  token: string;

  @ApiProperty({ example: 'btc' })
  symbol: string;

  @ApiProperty({ example: 'Bitcoin' })
  name: string;

  @ApiProperty({ description: 'Σ customer balances (what customers can spend)' })
  customerBalance: string;

  @ApiProperty({ description: 'Held for pending withdrawals (still owed until settled or released)' })
  pendingWithdrawals: string;

  @ApiProperty({ description: 'customerBalance + pendingWithdrawals' })
  total: string;

  @ApiProperty({ type: String, nullable: true })
  price: string | null;

  @ApiProperty({ description: 'USD value of total at the current price' })
  usdValue: number;

  @ApiProperty()
  holders: number;
}

export class LiabilitiesDto {
  @ApiProperty()
  totalUsd: number;

  @ApiProperty({ type: [TokenLiabilityDto] })
  tokens: TokenLiabilityDto[];

  @ApiProperty({ format: 'date-time' })
  asOf: string;
}
