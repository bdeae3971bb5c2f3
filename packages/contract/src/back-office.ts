import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { RequiredText, trim } from './text';
import { LedgerCheckDto } from './ledger';
import { IsIn, IsNotEmpty, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';

/** Admin back-office routes owned by the support area (users, notifications, tickets inbox, audit, dashboard). */
export const BackOfficeRoutes = {
  prefix: 'admin',
  deleteUser: 'delete-user/:id',
  /** Spelled as in the product spec. */
  sendNotification: 'send-notifiction/:userId',
  broadcast: 'broadcast',
  audit: 'audit',
  dashboard: 'dashboard',
  tickets: 'tickets',
  ticket: 'tickets/:id',
  replyTicket: 'tickets/:id/reply',
  closeTicket: 'tickets/:id/close',
} as const;

export const USER_DELETED_MESSAGE = 'User deleted successfully';
export const USER_NOTIFIED_MESSAGE = 'User Notified Successfully';

/** `?limit=&cursor=` of the paged admin lists; the answer is `{ items, nextCursor }` (nextCursor null on the last page). */
export class BackOfficePageQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 50, description: 'Page size, 1 to 100' })
  @IsOptional()
  @Matches(/^(?:[1-9]\d?|100)$/, { message: 'Limit must be a whole number from 1 to 100.' })
  limit?: string;

  @ApiPropertyOptional({ description: 'The nextCursor of the previous page.' })
  @IsOptional()
  @IsString({ message: 'The page cursor is not valid.' })
  @MaxLength(200, { message: 'The page cursor is not valid.' })
  cursor?: string;
}

export class BroadcastNotificationDto {
  @ApiProperty({ maxLength: 200 })
  @RequiredText('Title is required.', 200, 'Title must be at most 200 characters.')
  title: string;

  @ApiProperty({ maxLength: 5000 })
  @RequiredText('Message is required.', 5000, 'Message must be at most 5000 characters.')
  message: string;
}

export class SendNotificationDto extends BroadcastNotificationDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Sent by the spec's client; must match the path when present." })
  @IsOptional()
  @IsString({ message: 'User is required.' })
  userId?: string;
}

export class NotificationSentDto {
  @ApiProperty({ example: true })
  ok: boolean;

  @ApiProperty({ example: USER_NOTIFIED_MESSAGE })
  message: string;

  @ApiProperty({ description: 'How many customers got it (1 for a single notification).' })
  sent: number;
}

export class UserDeletedDto {
  @ApiProperty({ example: true })
  ok: boolean;

  @ApiProperty({ example: USER_DELETED_MESSAGE })
  message: string;
}

// ---- Audit log ----

export class AuditQueryDto extends BackOfficePageQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only actions by this admin (actor id).' })
  @IsOptional()
  @IsUUID('all', { message: 'The admin filter must be an account id.' })
  actor?: string;

  @ApiPropertyOptional({ example: 'user.deactivate' })
  @IsOptional()
  @IsString({ message: 'Give one action to filter by.' })
  @MaxLength(100, { message: 'The action filter is too long.' })
  action?: string;

  @ApiPropertyOptional({ example: 'user' })
  @IsOptional()
  @IsString({ message: 'Give one target type to filter by.' })
  @MaxLength(100, { message: 'The target type filter is too long.' })
  targetType?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString({ message: 'Give one target to filter by.' })
  @MaxLength(200, { message: 'The target filter is too long.' })
  targetId?: string;
}

export class AuditEntryDto {
  @ApiProperty({ description: 'Sequential id (as a string).' })
  _id: string;

  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  actorId: string | null;

  @ApiProperty({ type: String, nullable: true })
  actorRole: string | null;

  @ApiProperty({ type: String, nullable: true })
  actorEmail: string | null;

  @ApiProperty()
  action: string;

  @ApiProperty()
  targetType: string;

  @ApiProperty({ type: String, nullable: true })
  targetId: string | null;

  @ApiProperty({ nullable: true, description: 'State before (JSON)' })
  before: unknown;

  @ApiProperty({ nullable: true, description: 'State after (JSON)' })
  after: unknown;

  @ApiProperty({ type: String, nullable: true })
  requestId: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'cp_Zx81kQ0aTb', description: 'The prefix of the API key the actor used; null: a session' })
  apiKey: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class AuditPageDto {
  @ApiProperty({ type: [AuditEntryDto] })
  items: AuditEntryDto[];

  @ApiProperty({ type: String, nullable: true })
  nextCursor: string | null;
}

// ---- Dashboard ----

export class DashboardLiabilityDto {
  @ApiProperty({ description: 'Token (coin id)' })
  token: string;

  @ApiProperty({ description: 'Σ customer balances in this token (exact decimal string).' })
  total: string;

  @ApiProperty({ description: 'Held for pending withdrawals, still owed (exact decimal string).' })
  pending: string;

  @ApiProperty({ description: 'Customers holding a positive balance.' })
  holders: number;
}

/** What waits for an admin, each counted as the screen that handles it lists it. */
export class DashboardWaitingDto {
  @ApiProperty({ example: 2, description: 'Pending withdrawals the signer pays once approved (GET /admin/transaction?waiting=review)' })
  withdrawalsToReview: number;

  @ApiProperty({
    example: 1,
    description:
      'Withdrawals no signer will pay (a network without a signer, or a token the signer cannot pay): an admin pays each by hand and approves it with the transaction hash (waiting=manual-payout)',
  })
  withdrawalsToPayByHand: number;

  @ApiProperty({ example: 0, description: 'Approved withdrawals the hot wallet cannot pay yet (waiting=awaiting-funds; the reason is payoutReason)' })
  payoutsAwaitingFunds: number;

  @ApiProperty({
    example: 0,
    description:
      'Approved withdrawals the signer could not sign (its hot wallet locked, the signer or its node down, a fee above its ceiling; tried again each run) (waiting=cannot-sign; the reason is payoutReason)',
  })
  payoutsNotSigned: number;

  @ApiProperty({ example: 0, description: "Approved withdrawals above the hot limits, waiting for an admin's offline signature (waiting=cold-signature)" })
  payoutsAwaitingColdSignature: number;

  @ApiProperty({ example: 0, description: 'Credited deposits whose block was orphaned, not decided yet (GET /admin/chain/deposit-reviews)' })
  depositsToReview: number;

  @ApiProperty({ example: 0, description: 'Four-eyes requests waiting for a second admin (GET /admin/approvals?status=pending)' })
  approvalsWaiting: number;
}

export class DashboardDto {
  @ApiProperty({ description: 'Active customer accounts.' })
  users: number;

  @ApiProperty({ description: 'Supported tokens (live rows).' })
  cryptoCurrencies: number;

  @ApiProperty({ description: 'Notifications sent.' })
  notifications: number;

  @ApiProperty({ description: 'Open support tickets.' })
  openTickets: number;

  @ApiProperty({ type: [DashboardLiabilityDto] })
  liabilities: DashboardLiabilityDto[];

  @ApiProperty({ type: LedgerCheckDto, description: 'The ledger check (same as GET /admin/ledger/check).' })
  ledgerCheck: LedgerCheckDto;

  @ApiProperty({ type: DashboardWaitingDto, description: 'What waits for an admin, with the count each screen lists' })
  waiting: DashboardWaitingDto;
}

// ---- Tickets inbox ----

export class TicketsQueryDto extends BackOfficePageQueryDto {
  @ApiPropertyOptional({ enum: ['open', 'closed'] })
  @IsOptional()
  @IsIn(['open', 'closed'], { message: 'Status must be open or closed.' })
  status?: 'open' | 'closed';
}

export class TicketSummaryDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;

  @ApiProperty()
  subject: string;

  @ApiProperty()
  email: string;

  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'The customer account when sent signed in.' })
  userId: string | null;

  @ApiProperty({ enum: ['open', 'closed'] })
  status: 'open' | 'closed';

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, nullable: true, description: 'URL path of the image (/images/<name>) or null.' })
  image: string | null;

  @ApiProperty()
  replies: number;
}

export class TicketPageDto {
  @ApiProperty({ type: [TicketSummaryDto] })
  items: TicketSummaryDto[];

  @ApiProperty({ type: String, nullable: true })
  nextCursor: string | null;
}

export class TicketReplyDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;

  @ApiProperty()
  message: string;

  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  adminId: string | null;

  @ApiProperty({ type: String, nullable: true })
  author: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class TicketDetailDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;

  @ApiProperty()
  subject: string;

  @ApiProperty()
  note: string;

  @ApiProperty()
  email: string;

  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  userId: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The customer's name when linked to an account." })
  userName: string | null;

  @ApiProperty({ enum: ['open', 'closed'] })
  status: 'open' | 'closed';

  @ApiProperty({ type: String, nullable: true, description: 'URL path of the image (/images/<name>) or null.' })
  image: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  closedAt: string | null;

  @ApiProperty({ type: [TicketReplyDto] })
  replies: TicketReplyDto[];
}

export class ReplyTicketDto {
  @ApiProperty({ maxLength: 5000 })
  @Transform(trim)
  @IsString({ message: 'Reply is required.' })
  @IsNotEmpty({ message: 'Reply is required.' })
  @MaxLength(5000, { message: 'Reply must be at most 5000 characters.' })
  message: string;
}
