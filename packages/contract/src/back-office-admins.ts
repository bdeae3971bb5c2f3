import { SessionInfoDto } from './security';
import { AccountFreezeDto } from './compliance';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { COUNTRY_OUT, EmailAddress, RequiredText } from './text';

/** Several admins, four-eyes approvals and the per-user page of the back office (issue 12). */
export const BackOfficeAdminRoutes = {
  prefix: 'admin',
  admins: 'admins',
  admin: 'admins/:id',
  approvals: 'approvals',
  approve: 'approvals/:id/approve',
  reject: 'approvals/:id/reject',
  userDetail: 'users/:id',
  exportUsers: 'export/users',
  exportTransactions: 'export/transactions',
  exportAudit: 'export/audit',
} as const;

export const SENT_FOR_APPROVAL_MESSAGE = 'Sent for approval by a second admin.';

// ---- Admins ----

export class AdminAccountDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  email: string;

  @ApiProperty({ description: 'false once deactivated' })
  active: boolean;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  deactivatedAt: string | null;
}

export class CreateAdminDto {
  @ApiProperty({ example: 'Grace Hopper', maxLength: 100 })
  @RequiredText('Name is required.', 100, 'Name must be at most 100 characters.')
  name: string;

  @ApiProperty({ example: 'grace@coinpurse.example', maxLength: 254 })
  @EmailAddress()
  email: string;

  @ApiProperty({ minLength: 12, maxLength: 128, description: 'At least 12 characters for an administrator.' })
  @IsString({ message: 'Password is required.' })
  @MinLength(12, { message: 'An administrator password must be at least 12 characters.' })
  @MaxLength(128, { message: 'Password must be at most 128 characters.' })
  password: string;
}

export class AdminChangedDto {
  @ApiProperty({ example: true })
  ok: boolean;

  @ApiProperty({ example: 'Administrator deactivated' })
  message: string;

  @ApiProperty({ type: AdminAccountDto })
  admin: AdminAccountDto;
}

// ---- Four-eyes approvals ----

/** In the order of the database's CHECK (`admin_approvals_action_check`, built from this list by the server's schema). */
export const APPROVAL_ACTIONS = [
  'update-balance',
  'deposit',
  'modify-transaction',
  'delete-trx',
  'create-admin',
  'reverse-chain-deposit',
  'change-fees',
  'update-verification-limits',
  'freeze-account',
  'unfreeze-account',
  'release-deposit-hold',
] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];
export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** The 202 answer of a money action at or above APPROVAL_THRESHOLD_USD: nothing happened yet. */
export class PendingApprovalDto {
  @ApiProperty({ example: true })
  pendingApproval: true;

  @ApiProperty({ format: 'uuid' })
  approvalId: string;

  @ApiProperty({ example: SENT_FOR_APPROVAL_MESSAGE })
  message: string;
}

/** Why an action waits for a second admin. */
export const GATE_REASONS = ['threshold', 'velocity', 'settled-refund', 'admin-change', 'fee-change', 'account-freeze'] as const;
export type GateReason = (typeof GATE_REASONS)[number];

/** Every ledger account: a customer's, or a platform account (network_fees and network_fee_margin are moved only by completed payouts). */
export const POSTING_ACCOUNTS = [
  'customer',
  'deposits',
  'withdrawals_pending',
  'withdrawals_settled',
  'swap_pool',
  'adjustments',
  'network_fees',
  'network_fee_margin',
] as const;

/** One ledger line an approval applies, exactly. */
export class ApprovalPostingLineDto {
  @ApiProperty({ enum: POSTING_ACCOUNTS, description: "The customer's account, or a platform account." })
  account: (typeof POSTING_ACCOUNTS)[number];

  @ApiPropertyOptional({ format: 'uuid', description: 'The customer (customer lines only).' })
  userId?: string;

  @ApiProperty({ description: 'Token (coin id).' })
  token: string;

  @ApiProperty({ description: 'Token symbol, for people (e.g. BTC).' })
  symbol: string;

  @ApiProperty({ description: 'Signed quantity of the token (exact decimal string): positive credits the account.' })
  amount: string;
}

export class ApprovalAdminDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  email: string;
}

export class ApprovalDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;

  @ApiProperty({ enum: APPROVAL_ACTIONS })
  action: ApprovalAction;

  @ApiProperty({ enum: APPROVAL_STATUSES })
  status: ApprovalStatus;

  @ApiProperty({ description: 'What it does, for people.' })
  summary: string;

  @ApiProperty({ type: String, nullable: true, description: 'The reason given by the requester (balance adjustments).' })
  reason: string | null;

  @ApiProperty({ description: 'USD value at the prices of the request (exact decimal string).' })
  usdValue: string;

  @ApiProperty({ description: 'The request body as sent, for people; what is applied is `posting`.' })
  payload: Record<string, unknown>;

  @ApiProperty({
    enum: GATE_REASONS,
    isArray: true,
    description:
      'Why it needs a second admin: threshold (its value alone), velocity (the rolling sum of direct actions over APPROVAL_WINDOW_HOURS), ' +
      'settled-refund (money back from a settled withdrawal), admin-change (adding an administrator), account-freeze (freezing or unfreezing a customer).',
  })
  gatedBecause: GateReason[];

  @ApiProperty({
    type: [ApprovalPostingLineDto],
    description: 'Exactly what approving moves: every ledger line with its account, token and amount (empty for an administrator change).',
  })
  posting: ApprovalPostingLineDto[];

  @ApiProperty({ type: String, nullable: true, description: 'USD price per coin at the request (the value shown and the price recorded).' })
  price: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: '"Set balance": the balance it was decided from; approval applies only from this balance (else 409).',
  })
  balanceBefore: string | null;

  @ApiProperty({ type: String, nullable: true, description: '"Set balance": the balance it sets.' })
  balanceAfter: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Status changes and deletions: the status the transaction had at the request.' })
  fromStatus: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  userId: string | null;

  @ApiProperty({ type: String, nullable: true })
  userEmail: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  transactionId: string | null;

  @ApiProperty({ type: ApprovalAdminDto })
  requestedBy: ApprovalAdminDto;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: ApprovalAdminDto, nullable: true })
  decidedBy: ApprovalAdminDto | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  decidedAt: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why it was rejected.' })
  decisionReason: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why the last approval attempt failed (it stays pending).' })
  lastError: string | null;
}

export class ApprovalsQueryDto {
  @ApiPropertyOptional({ enum: APPROVAL_STATUSES, description: 'Default: every status, newest first (at most 200).' })
  @IsOptional()
  @IsIn(APPROVAL_STATUSES, { message: 'Status must be pending, approved or rejected.' })
  status?: ApprovalStatus;
}

export class RejectApprovalDto {
  @ApiProperty({ maxLength: 500 })
  @RequiredText('A reason is required.', 500, 'The reason must be at most 500 characters.')
  reason: string;
}

export class ApprovalDecisionDto {
  @ApiProperty({ example: 'Approved and applied.' })
  message: string;

  @ApiProperty({ type: ApprovalDto })
  approval: ApprovalDto;
}

// ---- The per-user page ----

export class UserDetailProfileDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  email: string;

  @ApiProperty({ example: 'United Kingdom', description: COUNTRY_OUT })
  country: string;

  @ApiProperty({ enum: ['user', 'admin'] })
  role: 'user' | 'admin';

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  deactivatedAt: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'When an admin erased the closed account’s personal data (POST /api/admin/users/{id}/erase); null otherwise.',
  })
  erasedAt: string | null;

  @ApiProperty({ type: AccountFreezeDto, nullable: true, description: 'The freeze while the account is frozen (nothing leaves it); null otherwise.' })
  freeze: AccountFreezeDto | null;
}

export class UserDetailBalanceDto {
  @ApiProperty({ example: 'bitcoin' })
  tokenId: string;

  @ApiProperty({ example: 'btc' })
  symbol: string;

  @ApiProperty({ example: 'Bitcoin' })
  name: string;

  @ApiProperty({ example: '0.02469000' })
  coinAmount: string;

  @ApiProperty({ example: 1234.5, description: 'USD value at the current price' })
  balance: number;
}

export class UserDetailNotificationDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;

  @ApiProperty()
  title: string;

  @ApiProperty()
  message: string;

  @ApiProperty()
  read: boolean;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class UserDetailTicketDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;

  @ApiProperty()
  subject: string;

  @ApiProperty({ enum: ['open', 'closed'] })
  status: 'open' | 'closed';

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class UserDetailAuditDto {
  @ApiProperty()
  _id: string;

  @ApiProperty()
  action: string;

  @ApiProperty({ type: String, nullable: true })
  actorEmail: string | null;

  @ApiProperty({ nullable: true })
  after: unknown;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class UserDetailDto {
  @ApiProperty({ type: UserDetailProfileDto })
  profile: UserDetailProfileDto;

  @ApiProperty({ type: [UserDetailBalanceDto] })
  balances: UserDetailBalanceDto[];

  @ApiProperty({ example: 1234.5 })
  totalBalance: number;

  @ApiProperty({ type: [UserDetailNotificationDto], description: 'The 20 newest.' })
  notifications: UserDetailNotificationDto[];

  @ApiProperty({ type: [UserDetailTicketDto], description: 'The 20 newest.' })
  tickets: UserDetailTicketDto[];

  @ApiProperty({ type: [UserDetailAuditDto], description: 'The 50 newest audit entries about this user.' })
  audit: UserDetailAuditDto[];

  @ApiProperty({ type: [ApprovalDto], description: 'Approval requests about this user (newest 20).' })
  approvals: ApprovalDto[];

  @ApiProperty({ type: [SessionInfoDto], description: 'The live sessions (signed-in devices) of this user; `current` is always false here.' })
  sessions: SessionInfoDto[];
}
