import { Inject, Injectable } from '@nestjs/common';
import type { VerificationDetailDto, VerificationPageDto, VerificationSummaryDto, VerificationsQueryDto } from '@coinpurse/contract';
import type { FastifyReply } from 'fastify';
import { ConflictError, InvalidInputError, NotFoundError } from '../../common/errors';
import { escapeHtml } from '../../common/html';
import { decodeCursor, encodeCursor, pageLimit, PG_TIMESTAMP_TEXT, UUID_TEXT } from '../../common/page-cursor';
import type { Actor } from '../../common/principal';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { MailService } from '../mail/mail.service';
import { NotificationsService } from '../notifications/notifications.service';
import { type SubmissionListRow, VerificationRepository } from './verification.repository';
import { documentContext, VerificationService } from './verification.service';

export const SUBMISSION_NOT_FOUND = 'Verification not found.';

/** Hooks run in the approval's transaction once a customer's level rose (the deposit holds release what it allows). */
export interface LevelRaisedHook {
  levelRaised(userId: string, level: number, actor: Actor, tx: Executor): Promise<void>;
}
export const LEVEL_RAISED_HOOKS = Symbol('LEVEL_RAISED_HOOKS');

/** The back office's review queue (issue 35): submissions, their documents (admins only), assignment, decisions. */
@Injectable()
export class VerificationReviewService {
  private readonly hooks: LevelRaisedHook[] = [];

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: VerificationRepository,
    private readonly verification: VerificationService,
    private readonly notifications: NotificationsService,
    private readonly audit: AuditService,
    private readonly mail: MailService,
  ) {}

  onLevelRaised(hook: LevelRaisedHook): void {
    this.hooks.push(hook);
  }

  async list(query: VerificationsQueryDto): Promise<VerificationPageDto> {
    const limit = pageLimit(query.limit);
    const after = query.cursor ? decodeCursor(query.cursor, [PG_TIMESTAMP_TEXT, UUID_TEXT]) : undefined;
    const rows = await this.repository.list({
      status: query.status,
      userId: query.userId,
      after: after && { createdAt: after[0], id: after[1] },
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { items: page.map(toSummary), nextCursor: rows.length > limit && last ? encodeCursor([last.createdAtKey, last.id]) : null };
  }

  async detail(id: string): Promise<VerificationDetailDto> {
    const row = UUID_TEXT.test(id) ? (await this.repository.list({ id, limit: 1 }))[0] : undefined;
    if (!row) throw new NotFoundError(SUBMISSION_NOT_FOUND);
    const documents = await this.repository.submissionDocuments(row.id);
    return {
      ...toSummary(row),
      details: this.verification.openDetails(row.id, row.detailsSealed),
      documents: documents.map((d) => ({ _id: d.id, kind: d.kind, contentType: d.contentType, url: `/api/admin/verifications/${row.id}/documents/${d.id}` })),
      decidedByName: row.decidedByName,
    };
  }

  /** The document's bytes, decrypted for this answer only: never cached, never framed, never sniffed. */
  async sendDocument(id: string, documentId: string, reply: FastifyReply): Promise<void> {
    const document = UUID_TEXT.test(id) && UUID_TEXT.test(documentId) ? await this.repository.documentBytes(id, documentId) : undefined;
    if (!document) throw new NotFoundError('Document not found.');
    const bytes = this.verification.box.openBytes(document.sealed, documentContext(document.id));
    await reply
      .status(200)
      .headers({
        'Content-Type': document.contentType,
        'Cache-Control': 'no-store, private',
        Pragma: 'no-cache',
        'Content-Disposition': 'inline',
        'X-Content-Type-Options': 'nosniff',
        'Content-Length': String(bytes.length),
      })
      .send(bytes);
  }

  async assign(actor: Actor, id: string, adminId: string | undefined): Promise<VerificationDetailDto> {
    const reviewer = adminId ?? actor.id;
    await this.db.transaction(async (tx) => {
      const found = await this.inReview(id, tx);
      if (!(await this.repository.adminName(reviewer, tx))) throw new InvalidInputError('The reviewer must be an active administrator.');
      await this.repository.assign(found.id, reviewer, tx);
      await this.audit.record(
        actor,
        {
          action: 'verification.assign',
          targetType: 'verification',
          targetId: found.id,
          before: { assignedTo: found.assignedTo },
          after: { assignedTo: reviewer },
        },
        tx,
      );
    });
    return this.detail(id);
  }

  async approve(actor: Actor, id: string): Promise<VerificationDetailDto> {
    await this.decide(actor, id, 'approved', null);
    return this.detail(id);
  }

  async reject(actor: Actor, id: string, reason: string): Promise<VerificationDetailDto> {
    await this.decide(actor, id, 'rejected', reason);
    return this.detail(id);
  }

  private async decide(actor: Actor, id: string, status: 'approved' | 'rejected', reason: string | null): Promise<void> {
    await this.db.transaction(async (tx) => {
      const found = await this.inReview(id, tx);
      const account = await this.repository.level(found.userId, tx);
      if (!account?.active) throw new ConflictError('This customer account is closed.');
      await this.repository.decide(found.id, { status, decidedBy: actor.id, reason }, tx);
      const level = status === 'approved' ? Math.max(account.level, found.level) : account.level;
      if (level !== account.level) await this.repository.setLevel(found.userId, level, tx);
      await this.audit.record(
        actor,
        {
          action: `verification.${status === 'approved' ? 'approve' : 'reject'}`,
          targetType: 'verification',
          targetId: found.id,
          before: { status: 'in_review', level: account.level },
          after: { status, level, reason, userId: found.userId },
        },
        tx,
      );
      const title = status === 'approved' ? `Verification approved: you are at level ${level}` : 'Verification not approved';
      const message =
        status === 'approved'
          ? `Your level-${found.level} verification was approved. Your limits are now those of level ${level} (Profile → Verification).`
          : `Your level-${found.level} verification was not approved: ${reason}. You can send it again in Profile → Verification.`;
      await this.notifications.notify({ userId: found.userId, title, message, createdBy: actor.id }, tx);
      await this.mail.send(
        {
          to: account.email,
          subject: title,
          text: `Hello ${account.name},\n\n${message}\n\n${this.config.publicUrl}/profile/verification\n\n— Coinpurse`,
          html: `<p>Hello ${escapeHtml(account.name)},</p><p>${escapeHtml(message)}</p><p><a href="${escapeHtml(this.config.publicUrl)}/profile/verification">Verification</a></p><p>— Coinpurse</p>`,
        },
        tx,
      );
      if (level > account.level) for (const hook of this.hooks) await hook.levelRaised(found.userId, level, actor, tx);
    });
  }

  private async inReview(id: string, tx: Executor) {
    const found = UUID_TEXT.test(id) ? await this.repository.findSubmission(id, { lock: true }, tx) : undefined;
    if (!found) throw new NotFoundError(SUBMISSION_NOT_FOUND);
    if (found.status !== 'in_review') throw new ConflictError(`This verification was already ${found.status}.`);
    return found;
  }
}

function toSummary(row: SubmissionListRow): VerificationSummaryDto {
  return {
    _id: row.id,
    userId: row.userId,
    userName: row.userName,
    userEmail: row.userEmail,
    currentLevel: row.currentLevel,
    level: row.level,
    status: row.status,
    assignedTo: row.assignedTo,
    assignedToName: row.assignedToName,
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}
