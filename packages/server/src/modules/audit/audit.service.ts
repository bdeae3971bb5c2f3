import { Injectable } from '@nestjs/common';
import type { Executor } from '../../db/database';
import type { Actor } from '../../common/principal';
import { AuditRepository } from './audit.repository';

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId: string | null;
  before?: unknown;
  after?: unknown;
}

/** An audit entry as `cp_write_records` takes it (the columns of `audit_log`). */
export interface AuditRow {
  actor_id: string | null;
  actor_role: string;
  action: string;
  target_type: string;
  target_id: string | null;
  before: unknown;
  after: unknown;
  request_id: string | null;
  /** The API key the actor used (null: a session or the system). */
  api_key_id: string | null;
}

/** An action applied through a four-eyes approval names both admins: the actor approved, `requestedBy` asked. */
function withApproval(actor: Actor | null, after: unknown): unknown {
  return actor?.approval ? { ...(after && typeof after === 'object' ? after : {}), approval: { ...actor.approval, approvedBy: actor.id } } : after;
}

/**
 * Append-only audit trail: who did what to which target, with before and after.
 * Pass the transaction executor so the row commits or rolls back with the change it describes.
 */
@Injectable()
export class AuditService {
  constructor(private readonly repository: AuditRepository) {}

  /** `record` as a row for a money function to write with its movement (`cp_write_records`; the columns of `audit_log`). */
  row(actor: Actor | null, entry: AuditEntry): AuditRow {
    return {
      actor_id: actor?.id ?? null,
      actor_role: actor?.role ?? 'system',
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      before: entry.before ?? null,
      after: withApproval(actor, entry.after) ?? null,
      request_id: actor?.requestId ?? null,
      api_key_id: actor?.apiKeyId ?? null,
    };
  }

  record(
    actor: Actor | null,
    entry: { action: string; targetType: string; targetId: string | null; before?: unknown; after?: unknown },
    executor?: Executor,
  ): Promise<void> {
    const after = withApproval(actor, entry.after);
    return this.repository.insert(
      {
        actorId: actor?.id ?? null,
        actorRole: actor?.role ?? 'system',
        requestId: actor?.requestId ?? null,
        apiKeyId: actor?.apiKeyId ?? null,
        ...entry,
        after,
      },
      executor,
    );
  }
}
