import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, IsIn, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { BackOfficePageQueryDto } from './back-office';
import { COUNTRY_IN, COUNTRY_OUT, RequiredText, trim } from './text';

/** Verification levels (issue 35): the customer's routes under `user`, the review queue and limits under `admin`. */
export const VerificationRoutes = {
  prefix: 'user',
  getVerification: 'verification',
  uploadDocument: 'verification/documents',
  submitVerification: 'verification/submit',
} as const;

export const VerificationAdminRoutes = {
  prefix: 'admin',
  verifications: 'verifications',
  verification: 'verifications/:id',
  document: 'verifications/:id/documents/:documentId',
  assign: 'verifications/:id/assign',
  approve: 'verifications/:id/approve',
  reject: 'verifications/:id/reject',
  limits: 'verification-limits',
  limit: 'verification-limits/:level',
  /** Erasure of a closed customer account's personal data. */
  erase: 'users/:id/erase',
} as const;

export const DOCUMENT_KIND_VALUES = ['id_front', 'id_back', 'selfie', 'proof_of_address'] as const;
export type DocumentKind = (typeof DOCUMENT_KIND_VALUES)[number];
export const IDENTITY_DOCUMENT_TYPES = ['passport', 'id_card', 'driving_licence'] as const;
export type IdentityDocumentType = (typeof IDENTITY_DOCUMENT_TYPES)[number];
export const SUBMISSION_STATUS_VALUES = ['in_review', 'approved', 'rejected'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUS_VALUES)[number];

/** A level's limits in USD; null is "no limit". */
export class LevelLimitsDto {
  @ApiProperty({ type: String, nullable: true, example: '10000', description: 'Deposits credited per rolling 24 hours' })
  depositDay: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Deposits credited per rolling 30 days' })
  depositMonth: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Withdrawals (sends) per rolling 24 hours' })
  withdrawalDay: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Withdrawals per rolling 30 days' })
  withdrawalMonth: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The largest single withdrawal' })
  withdrawalSingle: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Swaps per rolling 24 hours' })
  swapDay: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Swaps per rolling 30 days' })
  swapMonth: string | null;
}

export class VerificationLevelDto {
  @ApiProperty({ enum: [0, 1, 2] })
  level: number;
  @ApiProperty({ description: 'What the level asks for, in words.' })
  requires: string;
  @ApiProperty({ type: LevelLimitsDto })
  limits: LevelLimitsDto;
}

/** What is left of the customer's limits now (null: no limit, or limits off). */
export class LimitsLeftDto {
  @ApiProperty({ type: String, nullable: true })
  depositToday: string | null;
  @ApiProperty({ type: String, nullable: true })
  withdrawalToday: string | null;
  @ApiProperty({ type: String, nullable: true })
  swapToday: string | null;
  @ApiProperty({ type: String, nullable: true })
  depositMonth: string | null;
  @ApiProperty({ type: String, nullable: true })
  withdrawalMonth: string | null;
  @ApiProperty({ type: String, nullable: true })
  swapMonth: string | null;
}

export class DraftDocumentDto {
  @ApiProperty({ enum: DOCUMENT_KIND_VALUES })
  kind: DocumentKind;
  @ApiProperty({ format: 'date-time' })
  uploadedAt: string;
}

export class SubmissionStateDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;
  @ApiProperty({ enum: [1, 2], description: 'The level asked for' })
  level: number;
  @ApiProperty({ enum: SUBMISSION_STATUS_VALUES })
  status: SubmissionStatus;
  @ApiProperty({ type: String, nullable: true, description: 'Why it was rejected' })
  reason: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  decidedAt: string | null;
}

/** The customer's verification: their level, what each level allows, what is missing, their latest submission. */
export class VerificationDto {
  @ApiProperty({ enum: [0, 1, 2] })
  level: number;
  @ApiProperty({ description: 'false: the operator has not turned limits on; the figures are what they would be.' })
  limitsEnabled: boolean;
  @ApiProperty({ type: [VerificationLevelDto] })
  levels: VerificationLevelDto[];
  @ApiProperty({ type: [String], description: 'What is still missing for the next level, in words (empty at level 2).' })
  missing: string[];
  @ApiProperty({ type: [DraftDocumentDto], description: 'Documents uploaded and not yet submitted.' })
  documents: DraftDocumentDto[];
  @ApiProperty({ type: SubmissionStateDto, nullable: true, description: 'The latest submission.' })
  submission: SubmissionStateDto | null;
  @ApiProperty({ type: LimitsLeftDto })
  left: LimitsLeftDto;
}

/** The multipart form of one document: `kind` and the image in the `image` field. */
export class UploadDocumentDto {
  @ApiProperty({ enum: DOCUMENT_KIND_VALUES })
  @IsIn(DOCUMENT_KIND_VALUES, { message: 'Choose which document this is: id_front, id_back, selfie or proof_of_address.' })
  kind: DocumentKind;

  @ApiProperty({ type: 'string', format: 'binary', description: 'PNG, JPEG, WebP or GIF, at most 5 MB.' })
  @Allow()
  image?: unknown;
}

export class SubmitVerificationDto {
  @ApiProperty({ enum: [1, 2], description: '1: identity (the details below and the identity documents); 2: proof of address.' })
  @IsIn([1, 2], { message: 'Level must be 1 or 2.' })
  level: number;

  @ApiPropertyOptional({ maxLength: 200, description: 'Level 1: the legal name as on the document' })
  @ValidateIf((o: SubmitVerificationDto) => o.level === 1)
  @RequiredText('Legal name is required.', 200, 'Legal name must be at most 200 characters.')
  legalName?: string;

  @ApiPropertyOptional({ example: '1990-04-21', description: 'Level 1: YYYY-MM-DD; the customer must be 18 or older' })
  @ValidateIf((o: SubmitVerificationDto) => o.level === 1)
  @Transform(trim)
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'Date of birth must be a date (YYYY-MM-DD).' })
  dateOfBirth?: string;

  @ApiPropertyOptional({ maxLength: 500, description: 'Level 1: residential address (street, city, postal code)' })
  @ValidateIf((o: SubmitVerificationDto) => o.level === 1)
  @RequiredText('Residential address is required.', 500, 'Residential address must be at most 500 characters.')
  address?: string;

  @ApiPropertyOptional({ description: `Level 1: country of residence. ${COUNTRY_IN}` })
  @ValidateIf((o: SubmitVerificationDto) => o.level === 1)
  @RequiredText('Country is required.', 100, 'Select a country from the list.')
  country?: string;

  @ApiPropertyOptional({ enum: IDENTITY_DOCUMENT_TYPES, description: 'Level 1: a passport has no back; the others do' })
  @ValidateIf((o: SubmitVerificationDto) => o.level === 1)
  @IsIn(IDENTITY_DOCUMENT_TYPES, { message: 'Document type must be passport, id_card or driving_licence.' })
  documentType?: IdentityDocumentType;
}

// ----- the back office -----

export class VerificationsQueryDto extends BackOfficePageQueryDto {
  @ApiPropertyOptional({ enum: SUBMISSION_STATUS_VALUES, description: 'Default: every status' })
  @IsOptional()
  @IsIn(SUBMISSION_STATUS_VALUES, { message: 'Status must be in_review, approved or rejected.' })
  status?: SubmissionStatus;

  @ApiPropertyOptional({ format: 'uuid', description: "One customer's history" })
  @IsOptional()
  @IsString({ message: 'The customer id is not valid.' })
  @Matches(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: 'The customer id is not valid.' })
  userId?: string;
}

export class VerificationSummaryDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;
  @ApiProperty({ format: 'uuid' })
  userId: string;
  @ApiProperty()
  userName: string;
  @ApiProperty()
  userEmail: string;
  @ApiProperty({ enum: [0, 1, 2], description: "The customer's level now" })
  currentLevel: number;
  @ApiProperty({ enum: [1, 2] })
  level: number;
  @ApiProperty({ enum: SUBMISSION_STATUS_VALUES })
  status: SubmissionStatus;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  assignedTo: string | null;
  @ApiProperty({ type: String, nullable: true })
  assignedToName: string | null;
  @ApiProperty({ type: String, nullable: true })
  reason: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  decidedAt: string | null;
}

export class VerificationPageDto {
  @ApiProperty({ type: [VerificationSummaryDto] })
  items: VerificationSummaryDto[];
  @ApiProperty({ type: String, nullable: true })
  nextCursor: string | null;
}

export class PersonalDetailsDto {
  @ApiProperty()
  legalName: string;
  @ApiProperty({ example: '1990-04-21' })
  dateOfBirth: string;
  @ApiProperty()
  address: string;
  @ApiProperty({ description: COUNTRY_OUT })
  country: string;
  @ApiProperty({ enum: IDENTITY_DOCUMENT_TYPES })
  documentType: IdentityDocumentType;
}

export class SubmittedDocumentDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;
  @ApiProperty({ enum: DOCUMENT_KIND_VALUES })
  kind: DocumentKind;
  @ApiProperty()
  contentType: string;
  @ApiProperty({ description: 'The admin-only path that serves it (send the admin session; never cached).' })
  url: string;
}

export class VerificationDetailDto extends VerificationSummaryDto {
  @ApiProperty({ type: PersonalDetailsDto, nullable: true, description: 'Null for a level-2 request, or after erasure' })
  details: PersonalDetailsDto | null;
  @ApiProperty({ type: [SubmittedDocumentDto] })
  documents: SubmittedDocumentDto[];
  @ApiProperty({ type: String, nullable: true })
  decidedByName: string | null;
}

export class AssignVerificationDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'The reviewer; default: the admin calling' })
  @IsOptional()
  @IsString({ message: 'The reviewer id is not valid.' })
  @Matches(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: 'The reviewer id is not valid.' })
  adminId?: string;
}

export class RejectVerificationDto {
  @ApiProperty({ maxLength: 1000, description: 'Shown to the customer' })
  @RequiredText('A reason is required.', 1000, 'The reason must be at most 1000 characters.')
  reason: string;
}

export class VerificationLimitsDto {
  @ApiProperty({ description: 'KYC_LIMITS: whether the money functions enforce these' })
  limitsEnabled: boolean;
  @ApiProperty({ type: [VerificationLevelDto] })
  levels: VerificationLevelDto[];
}

const USD_OR_NONE = /^(\d{1,15}(\.\d{1,2})?)$/;
const LIMIT_MESSAGE = 'Each limit must be a USD amount (up to 2 decimals) or empty for no limit.';

/** A level's new limits; null (or an empty string) is "no limit". */
export class UpdateLevelLimitsDto {
  @ApiProperty({ type: String, nullable: true })
  @ValidateIf((_o, v) => v !== null && v !== '')
  @Matches(USD_OR_NONE, { message: LIMIT_MESSAGE })
  depositDay: string | null;
  @ApiProperty({ type: String, nullable: true })
  @ValidateIf((_o, v) => v !== null && v !== '')
  @Matches(USD_OR_NONE, { message: LIMIT_MESSAGE })
  depositMonth: string | null;
  @ApiProperty({ type: String, nullable: true })
  @ValidateIf((_o, v) => v !== null && v !== '')
  @Matches(USD_OR_NONE, { message: LIMIT_MESSAGE })
  withdrawalDay: string | null;
  @ApiProperty({ type: String, nullable: true })
  @ValidateIf((_o, v) => v !== null && v !== '')
  @Matches(USD_OR_NONE, { message: LIMIT_MESSAGE })
  withdrawalMonth: string | null;
  @ApiProperty({ type: String, nullable: true })
  @ValidateIf((_o, v) => v !== null && v !== '')
  @Matches(USD_OR_NONE, { message: LIMIT_MESSAGE })
  withdrawalSingle: string | null;
  @ApiProperty({ type: String, nullable: true })
  @ValidateIf((_o, v) => v !== null && v !== '')
  @Matches(USD_OR_NONE, { message: LIMIT_MESSAGE })
  swapDay: string | null;
  @ApiProperty({ type: String, nullable: true })
  @ValidateIf((_o, v) => v !== null && v !== '')
  @Matches(USD_OR_NONE, { message: LIMIT_MESSAGE })
  swapMonth: string | null;
}

export class ErasedDto {
  @ApiProperty({ format: 'uuid', description: 'The account’s id, kept as the pseudonym of its ledger entries' })
  _id: string;
  @ApiProperty()
  message: string;
}

export const VERIFICATION_SUBMITTED_MESSAGE = 'Your verification was submitted. We will tell you when it is reviewed.';
