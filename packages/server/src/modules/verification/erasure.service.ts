import { Inject, Injectable } from '@nestjs/common';
import { and, eq, sql } from 'drizzle-orm';
import { ConflictError, NotFoundError } from '../../common/errors';
import { UUID_TEXT } from '../../common/page-cursor';
import type { Actor } from '../../common/principal';
import { DATABASE, type Database } from '../../db/database';
import { addressBook, recoveryCodes, sessions, tickets, twoFactor, users, verificationDocuments, verificationSubmissions } from '../../db/schema';
import { AuditService } from '../audit/audit.service';

export const ERASED_NAME = 'Erased customer';

/** The address an erased account keeps: unique, unroutable (.invalid), saying nothing of the person. */
export function erasedEmail(userId: string): string {
  return `erased-${userId}@erased.invalid`;
}

/**
 * Erasure of a closed customer account (issue 35): the verification documents are deleted, the sealed personal details
 * dropped, the name, email, password and country replaced, the address book, two-factor secrets and sessions deleted,
 * the tickets' email replaced. The ledger, the History and the audit keep their rows under the account's id, which now
 * names no one; no money moves, so the books stay as they were.
 */
@Injectable()
export class ErasureService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly audit: AuditService,
  ) {}

  async erase(actor: Actor, userId: string): Promise<{ message: string; _id: string }> {
    if (!UUID_TEXT.test(userId)) throw new NotFoundError('User not found.');
    const id = userId.toLowerCase();
    await this.db.transaction(async (tx) => {
      const [user] = await tx
        .select({ role: users.role, deactivatedAt: users.deactivatedAt, erasedAt: users.erasedAt })
        .from(users)
        .where(eq(users.id, id))
        .for('update');
      if (!user || user.role !== 'user') throw new NotFoundError('User not found.');
      if (user.erasedAt) throw new ConflictError('This account was already erased.');
      if (!user.deactivatedAt) throw new ConflictError('Only a closed account can be erased: delete (close) the account first.');
      const documents = await tx.delete(verificationDocuments).where(eq(verificationDocuments.userId, id)).returning({ id: verificationDocuments.id });
      await tx.update(verificationSubmissions).set({ detailsSealed: null, updatedAt: new Date() }).where(eq(verificationSubmissions.userId, id));
      await tx.delete(addressBook).where(eq(addressBook.userId, id));
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, id));
      await tx.delete(twoFactor).where(eq(twoFactor.userId, id));
      await tx.delete(sessions).where(eq(sessions.userId, id));
      await tx
        .update(tickets)
        .set({ email: erasedEmail(id) })
        .where(eq(tickets.userId, id));
      await tx
        .update(users)
        .set({
          name: ERASED_NAME,
          email: erasedEmail(id),
          emailNormalized: erasedEmail(id),
          passwordHash: '!erased',
          country: '-',
          erasedAt: sql`now()`,
          updatedAt: new Date(),
        })
        .where(and(eq(users.id, id)));
      // The entry names what was erased, never the person.
      await this.audit.record(actor, { action: 'user.erase', targetType: 'user', targetId: id, after: { documentsDeleted: documents.length } }, tx);
    });
    return { message: 'The account’s personal data was erased; its ledger entries are kept under its id.', _id: id };
  }
}
