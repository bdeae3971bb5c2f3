import type { ApprovalDto } from '@coinpurse/contract';
import { type BoundEffect, type BoundLine } from '../ledger/four-eyes-policy';
import { plain } from '../ledger/money';
import type { ApprovalView } from './approvals.repository';

// A four-eyes request as the back office reads it (the approvals list, the per-user page, the data of the approval.*
// webhooks): beside the stored requests, below admin (which decides them) and webhooks (which announce them).

/** Symbols by coin id (the reference data cache: no trip). */
export type SymbolsOf = ReadonlyMap<string, { symbol: string }>;

/** Changes that move no money: their effect is the change itself, with no ledger lines. */
function isAdminChange(action: string): boolean {
  return action === 'create-admin' || action === 'update-verification-limits';
}

/** The coin ids an approval's bound lines name. */
export function postingTokens(rows: ApprovalView[]): string[] {
  return [
    ...new Set(rows.flatMap((row) => (isAdminChange(row.action) ? [] : ((row.effect as unknown as BoundEffect | null)?.lines ?? []).map((l) => l.token)))),
  ];
}

/** The bound ledger lines as the approver reads them (none for an administrator change or an old request). */
function postingOf(row: ApprovalView, symbols: SymbolsOf): Array<BoundLine & { symbol: string }> {
  if (isAdminChange(row.action) || !row.effect) return [];
  return ((row.effect as unknown as BoundEffect).lines ?? []).map((line) => ({
    ...line,
    symbol: (symbols.get(line.token)?.symbol ?? line.token).toUpperCase(),
  }));
}

export function toApprovalDto(row: ApprovalView, symbols: SymbolsOf = new Map()): ApprovalDto {
  const effect = isAdminChange(row.action) ? null : (row.effect as unknown as BoundEffect | null);
  return {
    _id: row.id,
    action: row.action,
    status: row.status,
    summary: row.summary,
    reason: row.reason,
    usdValue: plain(row.usdValue),
    payload: row.payload,
    userId: row.userId,
    userEmail: row.userEmail,
    transactionId: row.transactionId,
    requestedBy: { _id: row.requestedBy, name: row.requesterName, email: row.requesterEmail },
    createdAt: row.createdAt.toISOString(),
    decidedBy: row.decidedBy ? { _id: row.decidedBy, name: row.deciderName ?? '', email: row.deciderEmail ?? '' } : null,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decisionReason: row.decisionReason,
    lastError: row.lastError,
    gatedBecause: row.gateReasons as ApprovalDto['gatedBecause'],
    posting: postingOf(row, symbols),
    price: effect?.price ?? null,
    balanceBefore: effect?.balanceBefore ?? null,
    balanceAfter: effect?.balanceAfter ?? null,
    fromStatus: effect?.status ?? null,
  };
}
