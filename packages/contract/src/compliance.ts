import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, ValidateIf } from 'class-validator';
import { RequiredText } from './text';

/** Frozen accounts and sanctions screening in the back office (issue 35). */
export const ComplianceAdminRoutes = {
  prefix: 'admin',
  freeze: 'users/:id/freeze',
  unfreeze: 'users/:id/unfreeze',
  sanctions: 'sanctions',
  sanctionsHits: 'sanctions/hits',
} as const;

/** What a frozen customer is told when something would leave the account (sends, swaps, keys with trade/withdraw). */
export const ACCOUNT_FROZEN_MESSAGE = 'Your account is frozen: nothing can be sent, swapped or withdrawn. Please contact support.';

/** What a customer is told when an address is on the sanctions list (neutral: the list is not named). */
export const ADDRESS_REFUSED_MESSAGE = 'This address cannot be used. Please contact support if you think this is a mistake.';

export class AccountFreezeRequestDto {
  @ApiProperty({ maxLength: 500, description: 'Why, for the audit log and the other admins (required).' })
  @RequiredText('A reason is required.', 500, 'The reason must be at most 500 characters.')
  reason: string;
}

export class AccountFreezeDto {
  @ApiProperty({ description: 'Why it was frozen.' })
  reason: string;

  @ApiProperty({ format: 'date-time' })
  frozenAt: string;

  @ApiProperty({ type: String, nullable: true, description: 'The admin who froze it; null when sanctions screening did.' })
  frozenBy: string | null;
}

export class AccountFreezeChangedDto {
  @ApiProperty({ example: 'Account frozen' })
  message: string;

  @ApiProperty({ format: 'uuid' })
  userId: string;

  @ApiProperty({ type: AccountFreezeDto, nullable: true, description: 'The freeze now; null once unfrozen.' })
  freeze: AccountFreezeDto | null;
}

// ---- Sanctions screening ----

export const SANCTIONS_LIST_SOURCES = ['none', 'file', 'upload'] as const;
export type SanctionsListSource = (typeof SANCTIONS_LIST_SOURCES)[number];

export class SanctionsNetworkCountDto {
  @ApiProperty({ example: 'litecoin' })
  network: string;

  @ApiProperty({ example: 12 })
  entries: number;
}

export class SanctionsListDto {
  @ApiProperty({ enum: SANCTIONS_LIST_SOURCES, description: 'Where the list in force came from: SANCTIONS_LIST_FILE, an admin upload, or none yet.' })
  source: SanctionsListSource;

  @ApiProperty({ example: 42, description: 'Addresses on the list.' })
  entries: number;

  @ApiProperty({ type: [SanctionsNetworkCountDto] })
  networks: SanctionsNetworkCountDto[];

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  loadedAt: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'SHA-256 of the list text in force.' })
  sha256: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'SANCTIONS_LIST_FILE as configured (null: none).' })
  file: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why the file could not be loaded last time (the list in force was kept).' })
  fileError: string | null;
}

export class UploadSanctionsListDto {
  @ApiProperty({
    description:
      'The whole list: one `network,address` a line (network ids as in GET /api/networks); blank lines and lines starting with # are skipped. Replaces the list in force.',
    maxLength: 90_000,
  })
  @RequiredText('The list is required.', 90_000, 'The list is too long to upload here: put it in SANCTIONS_LIST_FILE.', false)
  list: string;
}

export const SANCTIONS_HIT_KINDS = ['send', 'address-book', 'deposit'] as const;
export type SanctionsHitKind = (typeof SANCTIONS_HIT_KINDS)[number];

export class SanctionsHitsQueryDto {
  @ApiPropertyOptional({ enum: SANCTIONS_HIT_KINDS })
  @IsOptional()
  @IsIn(SANCTIONS_HIT_KINDS, { message: 'Unknown kind.' })
  kind?: SanctionsHitKind;
}

export class SanctionsHitDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;

  @ApiProperty({
    enum: SANCTIONS_HIT_KINDS,
    description: 'A send refused, an address-book entry refused, or a deposit from a sanctioned address (credited, account frozen).',
  })
  kind: SanctionsHitKind;

  @ApiProperty({ format: 'uuid' })
  userId: string;

  @ApiProperty()
  userEmail: string;

  @ApiProperty({ example: 'litecoin' })
  network: string;

  @ApiProperty({ description: 'The sanctioned address (for a deposit: the sender).' })
  address: string;

  @ApiProperty({ type: String, nullable: true, description: 'Deposits: the transaction hash.' })
  txid: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Deposits: the amount (exact decimal string) of the token.' })
  amount: string | null;

  @ApiProperty({ type: String, nullable: true })
  token: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

// ---- Travel rule ----

export const TRAVEL_RULE_RECIPIENTS = ['own', 'other'] as const;
export const TRAVEL_RULE_WALLETS = ['self-hosted', 'exchange'] as const;

/** Who a send at or above TRAVEL_RULE_THRESHOLD_USD goes to (the travel rule): kept with the withdrawal. */
export class TravelRuleDto {
  @ApiProperty({ enum: TRAVEL_RULE_RECIPIENTS, description: "Whose wallet the address is: the customer's own, or someone else's." })
  @IsIn(TRAVEL_RULE_RECIPIENTS, { message: "Say whose wallet this is: your own or someone else's." })
  recipient: (typeof TRAVEL_RULE_RECIPIENTS)[number];

  @ApiPropertyOptional({ maxLength: 140, description: "The beneficiary's full name (required when the wallet is someone else's)." })
  @ValidateIf((dto: TravelRuleDto) => dto.recipient === 'other')
  @RequiredText("Enter the beneficiary's full name.", 140, "The beneficiary's name must be at most 140 characters.")
  beneficiaryName?: string;

  @ApiProperty({ enum: TRAVEL_RULE_WALLETS, description: 'A wallet the owner holds the keys of, or an account at an exchange (a custodian).' })
  @IsIn(TRAVEL_RULE_WALLETS, { message: 'Say whether the address is a self-hosted wallet or at an exchange.' })
  wallet: (typeof TRAVEL_RULE_WALLETS)[number];

  @ApiPropertyOptional({ maxLength: 140, description: "The exchange's name (required for an exchange)." })
  @ValidateIf((dto: TravelRuleDto) => dto.wallet === 'exchange')
  @RequiredText("Enter the exchange's name.", 140, "The exchange's name must be at most 140 characters.")
  exchangeName?: string;
}
