import { Inject, Injectable } from '@nestjs/common';
import { type DocumentKind, type LimitsLeftDto, type SubmitVerificationDto, type VerificationDto, type VerificationLevelDto } from '@coinpurse/contract';
import Decimal from 'decimal.js';
import { randomUUID } from 'node:crypto';
import { ConflictError, InvalidInputError, NotFoundError } from '../../common/errors';
import { countryName, requireCountryCode } from '../../common/countries';
import { checkImage, IMAGE_CONTENT_TYPES, type UploadedImageFile } from '../../common/image-upload';
import { actorOf, type Principal } from '../../common/principal';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { isUniqueViolation } from '../../common/database-errors';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { SecretBox } from '../security/secret-box';
import { LEVEL_REQUIREMENTS, MISSING_DETAILS, MISSING_TEXTS } from './verification-texts';
import { type DocumentKind as StoredKind, VerificationRepository } from './verification.repository';

/** The personal details a level-1 submission seals (the submission's id is the sealing context). */
export interface PersonalDetails {
  legalName: string;
  dateOfBirth: string;
  address: string;
  country: string;
  documentType: 'passport' | 'id_card' | 'driving_licence';
}

const ADULT_YEARS = 18;

/** The customer's side of verification (issue 35): their level, documents, submissions and what is left of their limits. */
@Injectable()
export class VerificationService {
  readonly box: SecretBox;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: VerificationRepository,
    private readonly audit: AuditService,
  ) {
    this.box = new SecretBox(config.encryptionKey);
  }

  async get(userId: string): Promise<VerificationDto> {
    const account = await this.repository.level(userId);
    if (!account) throw new NotFoundError('User not found.');
    const [levels, drafts, submission, usage] = await Promise.all([
      this.levels(),
      this.repository.draftDocuments(userId),
      this.repository.latestSubmission(userId),
      this.repository.usage(userId),
    ]);
    const own = levels.find((l) => l.level === account.level)!.limits;
    const left = (limit: string | null, used: string): string | null =>
      !this.config.kyc.limitsEnabled || limit === null ? null : Decimal.max(0, new Decimal(limit).minus(used)).toFixed(2);
    const leftDto: LimitsLeftDto = {
      depositToday: left(own.depositDay, usage.deposit.day),
      withdrawalToday: left(own.withdrawalSingle === null ? own.withdrawalDay : minOf(own.withdrawalDay, own.withdrawalSingle), usage.withdrawal.day),
      swapToday: left(own.swapDay, usage.swap.day),
      depositMonth: left(own.depositMonth, usage.deposit.month),
      withdrawalMonth: left(own.withdrawalMonth, usage.withdrawal.month),
      swapMonth: left(own.swapMonth, usage.swap.month),
    };
    const uploaded = new Set(drafts.map((d) => d.kind));
    const inReview = submission?.status === 'in_review';
    const missing: string[] = [];
    if (!inReview && account.level === 0) {
      missing.push(MISSING_DETAILS);
      for (const kind of ['id_front', 'id_back', 'selfie'] as const) if (!uploaded.has(kind)) missing.push(MISSING_TEXTS[kind]);
    } else if (!inReview && account.level === 1 && !uploaded.has('proof_of_address')) missing.push(MISSING_TEXTS.proof_of_address);
    return {
      level: account.level,
      limitsEnabled: this.config.kyc.limitsEnabled,
      levels,
      missing,
      documents: drafts.map((d) => ({ kind: d.kind, uploadedAt: d.createdAt.toISOString() })),
      submission: submission
        ? {
            _id: submission.id,
            level: submission.level,
            status: submission.status,
            reason: submission.reason,
            createdAt: submission.createdAt.toISOString(),
            decidedAt: submission.decidedAt?.toISOString() ?? null,
          }
        : null,
      left: leftDto,
    };
  }

  async levels(executor?: Executor): Promise<VerificationLevelDto[]> {
    const rows = await this.repository.limits(executor);
    return rows.map(({ level, ...limits }) => ({ level, requires: LEVEL_REQUIREMENTS[level], limits }));
  }

  /** One document, checked like the ticket images, sealed and kept as the draft of its kind until submitted. */
  async uploadDocument(principal: Principal, kind: DocumentKind, file: UploadedImageFile | undefined): Promise<VerificationDto> {
    const image = checkImage(file);
    if (!image) throw new InvalidInputError('Attach the image of the document in the "image" field.');
    const latest = await this.repository.latestSubmission(principal.id);
    if (latest?.status === 'in_review') throw new ConflictError('Your verification is in review: you can upload again once it is decided.');
    const id = randomUUID();
    await this.db.transaction(async (tx) => {
      await this.repository.putDraftDocument(
        {
          id,
          userId: principal.id,
          kind,
          contentType: IMAGE_CONTENT_TYPES[image.kind],
          size: image.bytes.length,
          sealed: this.box.sealBytes(image.bytes, documentContext(id)),
        },
        tx,
      );
      await this.audit.record(
        actorOf(principal, undefined),
        { action: 'verification.document', targetType: 'user', targetId: principal.id, after: { kind, documentId: id, size: image.bytes.length } },
        tx,
      );
    });
    return this.get(principal.id);
  }

  async submit(principal: Principal, input: SubmitVerificationDto, requestId?: string): Promise<VerificationDto> {
    const account = await this.repository.level(principal.id);
    if (!account) throw new NotFoundError('User not found.');
    if ((await this.repository.latestSubmission(principal.id))?.status === 'in_review') throw new ConflictError('Your verification is already in review.');
    const drafts = new Set((await this.repository.draftDocuments(principal.id)).map((d) => d.kind));
    let details: PersonalDetails | null = null;
    let kinds: StoredKind[];
    if (input.level === 1) {
      if (account.level >= 1) throw new ConflictError('Your identity is already verified.');
      details = {
        legalName: input.legalName!,
        dateOfBirth: adultDateOfBirth(input.dateOfBirth!),
        address: input.address!,
        country: requireCountryCode(input.country!),
        documentType: input.documentType!,
      };
      kinds = details.documentType === 'passport' ? ['id_front', 'selfie'] : ['id_front', 'id_back', 'selfie'];
    } else {
      if (account.level < 1) throw new ConflictError('Verify your identity (level 1) before sending a proof of address.');
      if (account.level >= 2) throw new ConflictError('Your address is already verified.');
      kinds = ['proof_of_address'];
    }
    const missing = kinds.filter((kind) => !drafts.has(kind));
    if (missing.length) throw new InvalidInputError(`Upload ${missing.map((kind) => MISSING_TEXTS[kind].toLowerCase()).join(', ')} first.`);
    const id = randomUUID();
    try {
      await this.db.transaction(async (tx) => {
        await this.repository.insertSubmission(
          { id, userId: principal.id, level: input.level, detailsSealed: details && this.box.seal(JSON.stringify(details), submissionContext(id)) },
          tx,
        );
        await this.repository.attachDrafts(principal.id, id, kinds, tx);
        await this.audit.record(
          actorOf(principal, requestId),
          { action: 'verification.submit', targetType: 'verification', targetId: id, after: { level: input.level, documents: kinds } },
          tx,
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError('Your verification is already in review.');
      throw error;
    }
    return this.get(principal.id);
  }

  openDetails(submissionId: string, sealed: string | null): PersonalDetails | null {
    if (!sealed) return null;
    const details = JSON.parse(this.box.open(sealed, submissionContext(submissionId))) as PersonalDetails;
    return { ...details, country: countryName(details.country) };
  }
}

export function documentContext(documentId: string): string {
  return `verification-document:${documentId}`;
}

export function submissionContext(submissionId: string): string {
  return `verification-submission:${submissionId}`;
}

function minOf(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return Decimal.min(a, b).toString();
}

/** A real date, not in the future, of someone 18 or older (and not over 130). */
export function adultDateOfBirth(text: string, today = new Date()): string {
  const [year, month, day] = text.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw new InvalidInputError('Date of birth must be a real date (YYYY-MM-DD).', { dateOfBirth: ['Date of birth must be a real date.'] });
  }
  const adultFrom = new Date(Date.UTC(year + ADULT_YEARS, month - 1, day));
  if (adultFrom.getTime() > today.getTime()) {
    throw new InvalidInputError('You must be 18 or older to verify your identity.', { dateOfBirth: ['You must be 18 or older.'] });
  }
  if (year < today.getUTCFullYear() - 130)
    throw new InvalidInputError('Please check your date of birth.', { dateOfBirth: ['Please check your date of birth.'] });
  return text;
}
