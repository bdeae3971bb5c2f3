import { sql, type SQL } from 'drizzle-orm';
import type { Actor } from '../../common/principal';

/**
 * The audit row `AuditService.record` writes (same columns and values), as a statement to run inside a single-statement
 * ledger posting on hot paths (swaps), so it commits atomically with the movement without an extra round trip.
 */
export function auditStatement(actor: Actor, entry: { action: string; targetType: string; targetId: string | null; before?: unknown; after?: unknown }): SQL {
  // As AuditService.record: an action applied through a four-eyes approval names both admins.
  if (actor.approval)
    entry = {
      ...entry,
      after: { ...(entry.after && typeof entry.after === 'object' ? entry.after : {}), approval: { ...actor.approval, approvedBy: actor.id } },
    };
  return sql`insert into audit_log (actor_id, actor_role, action, target_type, target_id, before, after, request_id)
    values (${actor.id}::uuid, ${actor.role}, ${entry.action}, ${entry.targetType}, ${entry.targetId},
            ${entry.before === undefined ? null : JSON.stringify(entry.before)}::jsonb, ${entry.after === undefined ? null : JSON.stringify(entry.after)}::jsonb, ${actor.requestId ?? null})`;
}
