import { Injectable } from '@nestjs/common';
import type { Executor } from '../../db/database';
import type { Actor } from '../../common/principal';
import { AuditRepository } from './audit.repository';

/**
 * Append-only audit trail: who did what to which target, with before and after.
 * Pass the transaction executor so the row commits or rolls back with the change it describes.
 */
@Injectable()
export class AuditService {
  constructor(private readonly repository: AuditRepository) {}

  record(
    actor: Actor | null,
    entry: { action: string; targetType: string; targetId: string | null; before?: unknown; after?: unknown },
    executor?: Executor,
  ): Promise<void> {
    // An action applied through a four-eyes approval names both admins: the actor approved, `requestedBy` asked.
    const after = actor?.approval
      ? { ...(entry.after && typeof entry.after === 'object' ? entry.after : {}), approval: { ...actor.approval, approvedBy: actor.id } }
      : entry.after;
    return this.repository.insert(
      { actorId: actor?.id ?? null, actorRole: actor?.role ?? 'system', requestId: actor?.requestId ?? null, ...entry, after },
      executor,
    );
  }
}
