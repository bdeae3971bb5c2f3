import { is, SQL, sql } from 'drizzle-orm';
import { sqlPiece, type SqlPiece } from '../../db/sql-template';
import type { Actor } from '../../common/principal';

type AuditEntry = { action: string; targetType: string; targetId: string | null; before?: unknown; after?: unknown };

/** As AuditService.record: an action applied through a four-eyes approval names both admins. */
function approvalOf(actor: Actor): { approval: Record<string, unknown> } | undefined {
  return actor.approval ? { approval: { ...actor.approval, approvedBy: actor.id } } : undefined;
}

/**
 * The audit row `AuditService.record` writes (same columns and values), as a statement to run inside a single-statement
 * ledger posting on hot paths (swaps), so it commits atomically with the movement without an extra round trip.
 * `before`/`after` may be jsonb expressions of that statement (e.g. a balance only the statement knows; see `jsonWith`).
 */
export function auditStatement(actor: Actor, entry: AuditEntry): SQL {
  let after: unknown = entry.after;
  const approval = approvalOf(actor);
  if (approval) {
    after = is(after, SQL) ? sql`(${after} || ${JSON.stringify(approval)}::jsonb)` : { ...(after && typeof after === 'object' ? after : {}), ...approval };
  }
  return sql`insert into audit_log (actor_id, actor_role, action, target_type, target_id, before, after, request_id)
    values (${actor.id}::uuid, ${actor.role}, ${entry.action}, ${entry.targetType}, ${entry.targetId},
            ${jsonb(entry.before)}, ${jsonb(after)}, ${actor.requestId ?? null})`;
}

/** `auditStatement` with plain values as a piece (hot paths: its text is built once per shape). */
export function auditPiece(actor: Actor, entry: AuditEntry): SqlPiece {
  const approval = approvalOf(actor);
  const after = approval ? { ...(entry.after && typeof entry.after === 'object' ? entry.after : {}), ...approval } : entry.after;
  return sqlPiece(
    'audit',
    [
      actor.id,
      actor.role,
      entry.action,
      entry.targetType,
      entry.targetId,
      entry.before === undefined ? null : JSON.stringify(entry.before),
      after === undefined ? null : JSON.stringify(after),
      actor.requestId ?? null,
    ],
    (v) => sql`insert into audit_log (actor_id, actor_role, action, target_type, target_id, before, after, request_id)
    values (${v(0)}::uuid, ${v(1)}, ${v(2)}, ${v(3)}, ${v(4)},
            ${v(5)}::jsonb, ${v(6)}::jsonb, ${v(7)})`,
  );
}

/** `value` with the `fields` computed by the statement (each a jsonb-able SQL expression), as a jsonb expression. */
export function jsonWith(value: Record<string, unknown>, fields: Record<string, SQL>): SQL {
  const built = sql.join(
    Object.entries(fields).map(([key, expression]) => sql`${key}::text, ${expression}`),
    sql`, `,
  );
  return sql`(${JSON.stringify(value)}::jsonb || jsonb_build_object(${built}))`;
}

function jsonb(value: unknown): SQL {
  if (is(value, SQL)) return value;
  return sql`${value === undefined ? null : JSON.stringify(value)}::jsonb`;
}
