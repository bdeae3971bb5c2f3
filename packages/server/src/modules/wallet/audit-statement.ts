import { sql, type SQL } from 'drizzle-orm';
import { sqlPiece, type SqlPiece, toSql } from '../../db/sql-template';
import type { Actor } from '../../common/principal';

/**
 * The audit row `AuditService.record` writes (same columns and values), as a statement to run inside a single-statement
 * ledger posting on hot paths (swaps), so it commits atomically with the movement without an extra round trip.
 */
export function auditStatement(actor: Actor, entry: AuditEntry): SQL {
  return toSql(auditPiece(actor, entry));
}

type AuditEntry = { action: string; targetType: string; targetId: string | null; before?: unknown; after?: unknown };

/** `auditStatement` as a piece (hot paths: its text is built once per shape). */
export function auditPiece(actor: Actor, entry: AuditEntry): SqlPiece {
  // As AuditService.record: an action applied through a four-eyes approval names both admins.
  if (actor.approval)
    entry = {
      ...entry,
      after: { ...(entry.after && typeof entry.after === 'object' ? entry.after : {}), approval: { ...actor.approval, approvedBy: actor.id } },
    };
  return sqlPiece(
    'audit',
    [
      actor.id,
      actor.role,
      entry.action,
      entry.targetType,
      entry.targetId,
      entry.before === undefined ? null : JSON.stringify(entry.before),
      entry.after === undefined ? null : JSON.stringify(entry.after),
      actor.requestId ?? null,
    ],
    (v) => sql`insert into audit_log (actor_id, actor_role, action, target_type, target_id, before, after, request_id)
    values (${v(0)}::uuid, ${v(1)}, ${v(2)}, ${v(3)}, ${v(4)},
            ${v(5)}::jsonb, ${v(6)}::jsonb, ${v(7)})`,
  );
}
