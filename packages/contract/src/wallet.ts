import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PAYOUT_STATES, type PayoutState } from './payouts';
import { SecondFactorCode } from './security';
import { IsAmount, UsdAmount } from './amount-validation';
import { TravelRuleDto } from './compliance';
import { COUNTRY_OUT, RequiredText } from './text';
import { Transform, Type } from 'class-transformer';
import { IsDefined, IsIn, IsNotEmptyObject, IsObject, IsOptional, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';

/** Money routes: paths exactly as the product spec names them (under `/api`). */
export const WalletRoutes = {
  getUserBalance: 'user/get-user-balance',
  getTransaction: 'user/get-transaction',
  exportTransactions: 'user/export-transactions',
  getUsers: 'user/get-users',
  sendCrypto: 'crypto/send-crypto/:tokenId',
  swap: 'crypto/swap',
  swapQuote: 'crypto/swap-quote',
  deposit: 'crypto/deposit/:userId',
  deleteTrx: 'crypto/delete-trx/:id',
  modifyTransaction: 'admin/modify-transaction',
  updateBalance: 'admin/update-balance/:userId',
  adminTransactions: 'admin/transaction',
  ledgerCheck: 'admin/ledger/check',
  ledgerLiabilities: 'admin/ledger/liabilities',
} as const;

/** Response header carrying the keyset cursor of the next page (absent on the last page). */
export const NEXT_CURSOR_HEADER = 'X-Next-Cursor';
/** Optional request header on send, swap, deposit and update-balance. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

export const TRANSACTION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export const TRANSACTION_TYPES = ['deposit', 'withdrawal', 'swap', 'adjustment'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** One of `values`: `required` when missing or empty, `invalid` otherwise. */
function IsChoice(values: readonly string[], required: string, invalid: string): PropertyDecorator {
  return IsIn(values, { message: (args) => (args.value === undefined || args.value === null || args.value === '' ? required : invalid) });
}

const STATUS_REQUIRED = 'Status is required.';
const STATUS_INVALID = 'Status must be pending, approved or rejected.';

export class TokenBalanceDto {
  @ApiProperty({ example: 'bitcoin', description: 'Token id (CoinGecko id)' })
  token: string;

  @ApiProperty({ example: 1234.5, description: 'USD value at the current price' })
  balance: number;

  @ApiProperty({ example: 'btc' })
  symbol: string;

  @ApiProperty({ example: 'Bitcoin' })
  name: string;

  @ApiProperty({
    example: '0.02469000',
    description: "Quantity held, at the token's display decimals (bitcoin 8, ethereum 6, tether 2, others 3), rounded down",
  })
  coinAmount: string;

  @ApiProperty({ example: '0.02469013', description: 'Quantity held exactly, every decimal the chain gave (no trailing zeros); what Send moves for "Max"' })
  coinAmountExact: string;

  @ApiProperty({ example: '50000', description: 'Current USD price used for `balance`' })
  price: string;
}

export class UserBalanceDto {
  @ApiProperty({ example: 1234.5, description: 'Sum of the USD values' })
  totalBalance: number;

  @ApiProperty({ type: [TokenBalanceDto] })
  balances: TokenBalanceDto[];
}

export class TransactionUserDto {
  @ApiProperty()
  name: string;

  @ApiProperty()
  email: string;
}

export class SwapDetailsDto {
  @ApiProperty({ example: 'bitcoin' })
  fromToken: string;

  @ApiProperty({ example: '0.00020000' })
  fromCoinAmount: string;

  @ApiProperty({ example: '50000' })
  fromPrice: string;

  @ApiProperty({ example: 'ethereum' })
  toToken: string;

  @ApiProperty({ example: '0.004000' })
  toCoinAmount: string;

  @ApiProperty({ example: '2500' })
  toPrice: string;
}

export class TransactionDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;

  @ApiProperty({ type: TransactionUserDto })
  user: TransactionUserDto;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ enum: TRANSACTION_TYPES })
  type: TransactionType;

  @ApiProperty({ type: String, nullable: true, description: 'Destination address (withdrawals)' })
  address: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'bitcoin', description: 'Network id (GET /crypto/networks)' })
  network: string | null;

  @ApiProperty({ example: 10, description: 'USD value at the time of the transaction' })
  amount: number;

  @ApiProperty({ enum: TRANSACTION_STATUSES })
  status: TransactionStatus;

  @ApiProperty({ example: 'bitcoin', description: 'Token id; for swaps the token given' })
  token: string;

  @ApiProperty({ example: 'btc' })
  symbol: string;

  @ApiProperty({ example: '0.00020000', description: 'Token quantity, exact decimal string' })
  coinAmount: string;

  @ApiProperty({
    example: '0.00140001',
    description: 'The coin amount exactly, every decimal the chain gave (no trailing zeros); `coinAmount` is it at the display decimals',
  })
  coinAmountExact: string;

  @ApiProperty({ type: String, nullable: true, example: '50000', description: 'USD price used' })
  price: string | null;

  @ApiProperty({ enum: ['in', 'out'], description: 'in: the customer received the token; out: the customer gave it' })
  direction: 'in' | 'out';

  @ApiProperty({ type: String, nullable: true, description: 'Adjustment reason' })
  note: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Memo / destination tag of a withdrawal (xrp, stellar)' })
  memo?: string | null;

  @ApiPropertyOptional({ type: SwapDetailsDto })
  swap?: SwapDetailsDto;

  @ApiPropertyOptional({
    description:
      'Settled withdrawals: the chain transaction id given by the admin who approved it. Deposits from the chain: the transaction that paid the deposit address.',
  })
  txHash?: string;

  @ApiPropertyOptional({ example: 3, description: 'Deposits from the chain: confirmations so far (0 while not in a block of the best chain)' })
  confirmations?: number;

  @ApiPropertyOptional({ example: 12, description: 'Deposits from the chain: confirmations needed before it is credited (status approved)' })
  requiredConfirmations?: number;

  @ApiPropertyOptional({
    enum: ['limit', 'review', 'sanctions'],
    description:
      "Deposits from the chain, confirmed but held off the balance (status pending; note says why in words): limit — above the verification level's deposit limit, released when the limit allows it (verify to raise it) or by an admin; review — held for a review (the customer's word; admins see sanctions: sent from a sanctioned address)",
  })
  hold?: 'limit' | 'review' | 'sanctions';

  @ApiPropertyOptional({
    enum: PAYOUT_STATES,
    description:
      'Withdrawals paid by the platform on a node-connected network: where the on-chain payment is (txHash once signed; confirmations n of requiredConfirmations while confirming; awaiting_cold_signature: above the hot limits, an admin signs it offline)',
  })
  payoutState?: PayoutState;

  @ApiPropertyOptional({
    example: 'the hot wallet cannot pay 0.50000000 and its fee: Insufficient funds',
    description:
      "Admin views only: why the on-chain payment waits while payoutState is awaiting_funds (what the hot wallet lacks; the payout job tries again each run, or routes it to the cold side) or approved with a last error (the hot wallet is locked, the signer or the node did not answer, the fee is above the signer's ceiling; tried again each run). Never shown to the customer.",
  })
  payoutReason?: string;

  @ApiPropertyOptional({
    example: '0.00001410',
    description: "Withdrawals paid on chain: the network fee of the payment in the network's own coin (once completed, the fee the chain took)",
  })
  fee?: string;

  @ApiPropertyOptional({
    example: '0.12498590',
    description: 'Withdrawals paid on chain: what the recipient gets, the amount less the network fee charged to the customer when the payment was signed',
  })
  recipientGets?: string;

  @ApiPropertyOptional({ type: TravelRuleDto, description: 'Admin views only: the travel-rule details given with the send.' })
  travelRule?: TravelRuleDto;
}

export class TransferDataDto {
  @ApiProperty({ example: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', description: 'Destination address, validated for the token network' })
  @RequiredText('Address is required.', 128, 'Address is too long.')
  address: string;

  @UsdAmount({ example: '10.00', description: 'USD amount to send (number or decimal string, at most 8 decimals)' })
  amount: number | string;

  @ApiPropertyOptional({ example: 'btc', description: 'Informational; the token is the path parameter' })
  @IsOptional()
  @IsString({ message: 'Symbol must be text.' })
  @MaxLength(32, { message: 'Symbol is too long.' })
  symbol?: string;

  @ApiPropertyOptional({
    example: '0.0002',
    description:
      "Informational only: the client's own estimate. The server ignores it and recomputes the coin amount from `amount` and its own current price, rounded down to the token's decimals (bitcoin 8, ethereum 6, tether 2, others 3); the response carries the amount actually held.",
  })
  @IsOptional()
  @IsString({ message: 'Coin amount must be text.' })
  @MaxLength(64, { message: 'Coin amount is too long.' })
  coinAmount?: string;

  @ApiPropertyOptional({
    example: '0.00140001',
    description:
      "The exact coin quantity to send (a decimal string, at most 18 decimals), e.g. the balance's `coinAmountExact` for Max: when given, exactly this is sent and its USD value is recomputed at the current price (`amount` is then informational)",
  })
  @IsOptional()
  @IsString({ message: 'Coin amount must be text, like "0.00140001".' })
  @IsAmount('Coin amount', { maxDecimals: 18, maxIntegerDigits: 20 })
  coinAmountExact?: string;

  @ApiPropertyOptional({
    example: 'tron',
    description:
      'Network id (GET /crypto/networks). Optional: a token on one network uses it; on several, the network is inferred when exactly one of them accepts the address, else 400 asks for it.',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() || undefined : value))
  @IsString({ message: 'Network must be text.' })
  @MaxLength(40, { message: 'Network is too long.' })
  network?: string;

  @ApiPropertyOptional({ example: '12345', description: 'Memo / destination tag, only on networks that have one (xrp: a number; stellar: text ≤ 28 bytes)' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() || undefined : value))
  @IsString({ message: 'Memo must be text.' })
  @MaxLength(64, { message: 'Memo is too long.' })
  memo?: string;
}

export class SendCryptoDto {
  @ApiProperty({ type: TransferDataDto })
  @IsDefined({ message: 'Transfer data is required.' })
  @IsObject({ message: 'Transfer data is required.' })
  @IsNotEmptyObject({}, { message: 'Transfer data is required.' })
  @ValidateNested({ message: 'Transfer data is required.' })
  @Type(() => TransferDataDto)
  transferData: TransferDataDto;

  @SecondFactorCode()
  code?: string;

  @ApiPropertyOptional({ type: TravelRuleDto, description: 'Required at or above TRAVEL_RULE_THRESHOLD_USD (USD amount): who the send goes to.' })
  @IsOptional()
  @IsObject({ message: "Say who this send goes to: whose wallet, the beneficiary's name, and the exchange's name for an exchange." })
  @ValidateNested({ message: "Say who this send goes to: whose wallet, the beneficiary's name, and the exchange's name for an exchange." })
  @Type(() => TravelRuleDto)
  travelRule?: TravelRuleDto;
}

export class SendCryptoResponseDto {
  @ApiProperty({ example: 'Sent and Pending Check Status in History' })
  message: string;

  @ApiProperty({ type: TransactionDto })
  transaction: TransactionDto;
}

export class DepositDto {
  @UsdAmount({ example: 250, description: 'USD value deposited; converted at the current price, rounded down' })
  amount: number | string;

  @ApiProperty({ enum: TRANSACTION_STATUSES })
  @IsChoice(TRANSACTION_STATUSES, STATUS_REQUIRED, STATUS_INVALID)
  status: TransactionStatus;

  @ApiProperty({
    example: 'bitcoin',
    description:
      "A network id (tron, ethereum, ...: the token on it, when that is unambiguous) or, as the spec's hint shows, a supported token id, name or symbol (its first network).",
  })
  @RequiredText('Network is required.', 100, 'Unknown network.')
  network: string;
}

export class ModifyTransactionDto {
  @ApiProperty({ format: 'uuid', description: 'Transaction _id' })
  @RequiredText('Transaction id is required.', 64, 'Transaction not found.', false)
  tId: string;

  @ApiProperty({ enum: TRANSACTION_STATUSES, description: 'New status' })
  @IsChoice(TRANSACTION_STATUSES, STATUS_REQUIRED, STATUS_INVALID)
  modification: TransactionStatus;

  @ApiPropertyOptional({
    enum: TRANSACTION_STATUSES,
    description: 'Optimistic check (beyond the spec): when given and the current status differs, 409 and nothing changes.',
  })
  @IsOptional()
  @IsIn(TRANSACTION_STATUSES, { message: 'Expected status must be pending, approved or rejected.' })
  expectedStatus?: TransactionStatus;

  @ApiPropertyOptional({
    example: '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b',
    description: "Approving a withdrawal only: the chain transaction id, checked against the network's format; shown to the customer.",
    maxLength: 128,
  })
  @IsOptional()
  @IsString({ message: 'The transaction hash must be text.' })
  @MaxLength(128, { message: 'The transaction hash is too long.' })
  txHash?: string;
}

export class TransactionChangeDto {
  @ApiProperty({ example: 'Status updated successfully' })
  message: string;

  @ApiProperty({ description: 'false when the transaction already had this status (nothing was posted)' })
  changed: boolean;

  @ApiProperty({ type: TransactionDto })
  transaction: TransactionDto;
}

const ALL_REQUIRED = 'All fields are required.';

export class UpdateBalanceDto {
  @ApiProperty({ example: 'bitcoin', description: 'Token id, name or symbol of a supported token' })
  @RequiredText(ALL_REQUIRED, 100, 'Unknown token.')
  token: string;

  @UsdAmount(
    { example: 100, description: 'USD value: added (type yes) or the new balance (type no, may be 0)' },
    { allowZero: true, requiredMessage: ALL_REQUIRED },
  )
  amount: number | string;

  @ApiProperty({ enum: ['yes', 'no'], description: 'yes = Add Balance, no = Change Balance' })
  @IsChoice(['yes', 'no'], ALL_REQUIRED, 'Type must be yes (add) or no (change).')
  type: 'yes' | 'no';

  @ApiPropertyOptional({ description: 'Reason, shown to the customer; a default reason is used when empty' })
  @IsOptional()
  @IsString({ message: 'Message must be text.' })
  @MaxLength(500, { message: 'Message must be at most 500 characters.' })
  msg?: string;

  @ApiPropertyOptional({ description: 'Informational; ignored (the server converts `amount` at its own price)' })
  @IsOptional()
  coinAmount?: unknown;

  @ApiPropertyOptional({ description: 'Informational; ignored' })
  @IsOptional()
  symbol?: unknown;
}

export class UpdateBalanceResponseDto {
  @ApiProperty({ example: 'Balance updated successfully' })
  message: string;

  @ApiProperty({ type: TokenBalanceDto, description: 'The new balance of that token' })
  balance: TokenBalanceDto;

  @ApiProperty({ type: TransactionDto, nullable: true, description: 'The adjustment (null when the balance already had that value)' })
  transaction: TransactionDto | null;
}

export class DeleteTransactionResponseDto {
  @ApiProperty({ example: 'Transaction deleted successfully' })
  message: string;
}

/** Keyset paging of the lists: page size and the cursor of the previous page. */
export class PageQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'Page size, 1 to 200' })
  @IsOptional()
  @IsString({ message: 'Limit must be a whole number from 1 to 200.' })
  limit?: string;

  @ApiPropertyOptional({ description: `Keyset cursor from the ${NEXT_CURSOR_HEADER} response header` })
  @IsOptional()
  @IsString({ message: 'The cursor is not valid.' })
  cursor?: string;
}

export class TransactionQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Token id filter' })
  @IsOptional()
  @IsString({ message: 'Token must be text.' })
  @MaxLength(100, { message: 'Unknown token.' })
  token?: string;

  @ApiPropertyOptional({ enum: TRANSACTION_TYPES })
  @IsOptional()
  @IsIn(TRANSACTION_TYPES, { message: 'Type must be deposit, withdrawal, swap or adjustment.' })
  type?: TransactionType;

  @ApiPropertyOptional({ enum: TRANSACTION_STATUSES })
  @IsOptional()
  @IsIn(TRANSACTION_STATUSES, { message: STATUS_INVALID })
  status?: TransactionStatus;

  @ApiPropertyOptional({ format: 'uuid', description: 'One transaction by its `_id` (a notification’s `transactionId`): the list holds it, or nothing' })
  @IsOptional()
  @IsUUID('all', { message: 'The transaction id is not valid.' })
  id?: string;
}

export class UsersQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Part of the customer email or name (case-insensitive, prefix or substring)', maxLength: 100 })
  @IsOptional()
  @IsString({ message: 'Search must be text.' })
  @MaxLength(100, { message: 'Search must be at most 100 characters.' })
  search?: string;
}

export class AdminUserBalanceDto {
  @ApiProperty({ example: 'Bitcoin', description: 'Token name' })
  token: string;

  @ApiProperty({ example: 1234.5, description: 'USD value at the current price' })
  balance: number;

  @ApiProperty({ example: 'bitcoin' })
  tokenId: string;

  @ApiProperty({ example: 'btc' })
  symbol: string;

  @ApiProperty({ example: '0.02469000' })
  coinAmount: string;
}

export class AdminUserDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  email: string;

  @ApiProperty({ example: 'United Kingdom', description: COUNTRY_OUT })
  country: string;

  @ApiProperty({ type: [AdminUserBalanceDto] })
  balances: AdminUserBalanceDto[];
}
