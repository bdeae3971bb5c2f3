import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayNotEmpty, ArrayUnique, IsArray, IsIn, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';
import { SecondFactorCode } from './security';
import { RequiredText } from './text';

/** Integrators' API keys (under `/api`): each owner manages their own. */
export const ApiKeyRoutes = {
  userKeys: 'user/api-keys',
  userKey: 'user/api-keys/:id',
  adminKeys: 'admin/api-keys',
  adminKey: 'admin/api-keys/:id',
} as const;

/** Every API key starts with this: `Authorization: Bearer cp_…` (a session token never does). */
export const API_KEY_PREFIX = 'cp_';
/** How many characters of a key are its public `prefix` (shown in lists, written to logs and the audit log). */
export const API_KEY_PREFIX_LENGTH = 12;

export const API_KEY_SCOPES = ['read', 'trade', 'withdraw', 'operate'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
/** A customer's key: read (balances, history, market), trade (swaps), withdraw (sends). */
export const CUSTOMER_KEY_SCOPES = ['read', 'trade', 'withdraw'] as const satisfies readonly ApiKeyScope[];
/** An administrator's key: read (the back office's lists), operate (its changes; never a four-eyes decision). */
export const ADMIN_KEY_SCOPES = ['read', 'operate'] as const satisfies readonly ApiKeyScope[];
/** Client addresses or ranges one key may list at most. */
export const MAX_ALLOWED_IPS = 50;

const SCOPES_MESSAGE = 'Choose the scopes of the key: read, trade or withdraw (administrators: read or operate).';
const IPS_MESSAGE = `Allowed addresses must be a list of at most ${MAX_ALLOWED_IPS} IP addresses or CIDR ranges.`;

export class CreateApiKeyDto {
  @ApiProperty({ example: 'Accounting export', maxLength: 100, description: 'A name for people' })
  @RequiredText('Name the key.', 100, 'The name must be at most 100 characters.')
  name: string;

  @ApiProperty({
    enum: API_KEY_SCOPES,
    isArray: true,
    example: ['read', 'trade'],
    description:
      'Customers: `read`, `trade` (swaps), `withdraw` (sends; needs the address allowlist on and, with two-factor sign-in, `code`). Administrators: `read`, `operate` (back-office changes; never approving or rejecting a four-eyes request).',
  })
  @IsIn(API_KEY_SCOPES, { each: true, message: SCOPES_MESSAGE })
  @ArrayUnique({ message: 'Name each scope once.' })
  @ArrayMaxSize(API_KEY_SCOPES.length, { message: SCOPES_MESSAGE })
  @ArrayNotEmpty({ message: SCOPES_MESSAGE })
  @IsArray({ message: SCOPES_MESSAGE })
  scopes: ApiKeyScope[];

  @ApiPropertyOptional({
    type: [String],
    example: ['203.0.113.7', '198.51.100.0/24'],
    description: `Client addresses (IPv4 or IPv6) or CIDR ranges the key may be used from, at most ${MAX_ALLOWED_IPS}; empty or absent: any address. The client address is the one TRUST_PROXY makes it; an IPv4-mapped IPv6 address matches its IPv4 form.`,
  })
  @IsOptional()
  @IsString({ each: true, message: IPS_MESSAGE })
  @MaxLength(64, { each: true, message: IPS_MESSAGE })
  @ArrayMaxSize(MAX_ALLOWED_IPS, { message: IPS_MESSAGE })
  @IsArray({ message: IPS_MESSAGE })
  allowedIps?: string[];

  @ApiPropertyOptional({ format: 'date-time', example: '2027-01-31T00:00:00Z', description: 'When the key stops working (any future time); absent: never' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'The expiry must be a date and time such as 2027-01-31T00:00:00Z.' })
  @Transform(({ value }) => (value === null ? undefined : value))
  expiresAt?: string;

  @SecondFactorCode()
  code?: string;
}

export class ApiKeyDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Accounting export' })
  name: string;

  @ApiProperty({ example: 'cp_Zx81kQ0aTb', description: 'The first 12 characters of the key: how logs and the audit log name it' })
  prefix: string;

  @ApiProperty({ enum: API_KEY_SCOPES, isArray: true })
  scopes: ApiKeyScope[];

  @ApiProperty({ type: [String], description: 'Addresses or ranges the key may be used from (empty: any)' })
  allowedIps: string[];

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  expiresAt: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Last use (recorded at most once a minute per address)' })
  lastUsedAt: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The client address of the last use' })
  lastUsedIp: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  revokedAt: string | null;

  @ApiProperty({ enum: ['active', 'expired', 'revoked'] })
  status: 'active' | 'expired' | 'revoked';
}

export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({
    example: 'cp_Zx81kQ0aTbq3M2w9yQmE4cH7nV1sL6pD0rXfGk5uJtA',
    description: 'The key itself, shown this once: only its hash is kept. Send it as `Authorization: Bearer <key>`.',
  })
  key: string;
}
