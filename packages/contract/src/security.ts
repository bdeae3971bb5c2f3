import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { trim } from './text';

/** Routes of the account security area (two-factor sign-in and sessions), under the user and admin prefixes. */
export const SecurityRoutes = {
  twoFactorSetup: '2fa/setup',
  twoFactorEnable: '2fa/enable',
  twoFactorDisable: '2fa/disable',
  twoFactorRecoveryCodes: '2fa/recovery-codes',
  twoFactorStatus: '2fa',
  logoutAll: 'logout-all',
  sessions: 'sessions',
  session: 'sessions/:id',
} as const;

/** The answer (401) when an account with two-factor sign-in is missing its code. */
export const TWO_FACTOR_REQUIRED_MESSAGE = 'Enter the 6-digit code from your authenticator app.';
/** The answer (403) of the admin routes while an administrator has not enrolled (ADMIN_REQUIRE_2FA). */
export const TWO_FACTOR_SETUP_REQUIRED_MESSAGE = 'Set up two-factor authentication first.';

/**
 * An optional second-factor code: a 6-digit TOTP code or a recovery code (spaces and dashes allowed).
 * Sent on sign-in and on the actions that need a fresh confirmation (step-up) when two-factor sign-in is on.
 */
export function SecondFactorCode(): PropertyDecorator {
  return (target, key) => {
    ApiPropertyOptional({ example: '123456', description: 'TOTP code or recovery code; required when two-factor sign-in is on.', maxLength: 64 })(target, key);
    IsOptional()(target, key);
    MaxLength(64, { message: TWO_FACTOR_REQUIRED_MESSAGE })(target, key);
    IsString({ message: TWO_FACTOR_REQUIRED_MESSAGE })(target, key);
    Transform(trim)(target, key);
  };
}

export class TwoFactorCodeDto {
  @ApiProperty({ example: '123456', description: 'TOTP code (or, to disable or renew codes, a recovery code)' })
  @MaxLength(64, { message: TWO_FACTOR_REQUIRED_MESSAGE })
  @IsNotEmpty({ message: TWO_FACTOR_REQUIRED_MESSAGE })
  @IsString({ message: TWO_FACTOR_REQUIRED_MESSAGE })
  @Transform(trim)
  code: string;
}

export class TwoFactorSetupDto {
  @ApiProperty({ example: 'JBSWY3DPEHPK3PXPJBSWY3DPEQ', description: 'Base32 secret for manual entry' })
  secret: string;

  @ApiProperty({ example: 'otpauth://totp/Coinpurse:ada%40example.com?secret=...&issuer=Coinpurse', description: 'For the QR code' })
  otpauthUrl: string;
}

export class RecoveryCodesDto {
  @ApiProperty({ type: [String], description: '10 single-use recovery codes, shown once' })
  recoveryCodes: string[];
}

export class TwoFactorStatusDto {
  @ApiProperty()
  enabled: boolean;

  @ApiProperty({ description: 'Unused recovery codes left' })
  recoveryCodesLeft: number;

  @ApiProperty({ description: 'True when this account must enrol before anything else (administrators under ADMIN_REQUIRE_2FA)' })
  required: boolean;
}

export class SessionInfoDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  lastSeenAt: string;

  @ApiProperty({ type: String, nullable: true })
  ip: string | null;

  @ApiProperty({ type: String, nullable: true })
  userAgent: string | null;

  @ApiProperty({ description: 'The session of this request ("This device")' })
  current: boolean;
}
