import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsString, MaxLength, MinLength } from 'class-validator';
import { EmailAddress, RequiredText } from './text';

/** Customer-side support routes: notifications, live events, tickets and password reset (all under the `user` prefix). */
export const SupportRoutes = {
  prefix: 'user',
  getNotifications: 'get-notifications',
  readNotification: 'read-notification/:id',
  /** Server-sent events: `notification` and `balance` events for the signed-in customer. */
  events: 'events',
  createTicket: 'create-ticket',
  forgotPassword: 'forgot-password',
  resetPassword: 'reset-password',
} as const;

/** Names of the server-sent events on `GET /api/user/events`. Each event's data is JSON. */
export const LiveEventNames = {
  /** data: a NotificationDto */
  notification: 'notification',
  /** data: whatever the wallet publishes about the changed balance (at least `{ token }`); refetch the balance. */
  balance: 'balance',
} as const;

export const FORGOT_PASSWORD_MESSAGE = 'Check your email for the password reset link';
export const PASSWORD_CHANGED_MESSAGE = 'Password Changed Successfully';
export const TICKET_CREATED_MESSAGE = 'Your support ticket has been submitted successfully';

export class NotificationDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;

  @ApiProperty()
  title: string;

  @ApiProperty()
  message: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ description: 'false until the customer opens it' })
  read: boolean;

  @ApiPropertyOptional({ enum: ['pending', 'approved', 'rejected'], description: 'Present when the notification is about a transaction.' })
  status?: 'pending' | 'approved' | 'rejected';

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The transaction (History row, `_id` of GET /user/get-transaction) the notification is about, when it is about one.',
  })
  transactionId?: string;
}

/** Text fields of the multipart ticket form; the optional file goes in the `image` field. */
export class CreateTicketDto {
  @ApiProperty({ maxLength: 200, example: 'Deposit not showing' })
  @RequiredText('Subject is required.', 200, 'Subject must be at most 200 characters.')
  subject: string;

  @ApiProperty({ maxLength: 5000, description: 'The message.' })
  @RequiredText('Message is required.', 5000, 'Message must be at most 5000 characters.')
  note: string;

  @ApiProperty({ example: 'ada@example.com', maxLength: 254 })
  @EmailAddress()
  email: string;

  @ApiPropertyOptional({ type: 'string', format: 'binary', description: 'Optional PNG, JPEG, WebP or GIF image, at most 5 MB.' })
  @Allow()
  image?: unknown;
}

export class TicketCreatedDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;

  @ApiProperty({ example: TICKET_CREATED_MESSAGE })
  message: string;
}

export class ForgotPasswordDto {
  @ApiProperty({ example: 'ada@example.com' })
  @EmailAddress()
  email: string;
}

export class ResetPasswordDto {
  @ApiProperty({ minLength: 8, maxLength: 128 })
  @IsString({ message: 'Password is required.' })
  @MinLength(8, { message: 'Password must be at least 8 characters.' })
  @MaxLength(128, { message: 'Password must be at most 128 characters.' })
  password: string;
}

export class SupportMessageDto {
  @ApiProperty()
  message: string;
}
