import type { DepositDto, TransactionStatus } from '@coinpurse/contract';
import { randomUUID } from 'node:crypto';
import { ConflictError, InvalidInputError } from '../../common/errors';
import type { Tx } from '../../db/database';
import type { Actor } from '../../common/principal';
import { type BoundEffect, location, MOVEMENT_CHANGED_SINCE_REQUEST, sameLines, StaleApprovalError } from '../ledger/four-eyes-policy';
import type { AccountKey } from '../ledger/ledger.repository';
import { customer, type Leg, LEASED_SHARD, platform, transfer } from '../ledger/ledger.service';
import { type Money, plain, toMoney, usdValue } from '../ledger/money';
import type { TransactionRecord } from '../wallet/transactions.repository';
import { txExplorerUrl } from '../wallet/tx-hash';
import { describe, usdText } from '../wallet/wallet-common';
import { TOKEN_GONE_STATE, type WalletToken } from '../wallet/wallet-tokens.repository';
import type { CustomerRecord } from '../wallet/wallet-users.repository';

/**
 * What each admin money command writes, whichever path writes it: the rows (transaction, notification, audit) and the
 * ledger movement. Pure: no database access.
 */

export const TYPE_LABEL: Record<string, string> = { deposit: 'deposit', withdrawal: 'withdrawal', swap: 'swap', adjustment: 'balance adjustment' };

export function sameAccount(a: AccountKey, b: AccountKey): boolean {
  return (
    a.kind === b.kind &&
    a.token === b.token &&
    (a.kind === 'customer' ? a.userId === (b as { userId: string }).userId : a.code === (b as { code: string }).code)
  );
}

/** " — https://explorer/tx/…" for a network in the registry, '' otherwise. */
function explorerLine(network: string | null, hash: string): string {
  const url = txExplorerUrl(network, hash);
  return url ? ` — ${url}` : '';
}

/** The movement that reverses a transaction's ledger effect (none when its quantity is not with the customer, or not yet). */
export function voidLegs(record: Omit<TransactionRecord, 'seq'>): Leg[] {
  const quantity = toMoney(record.coinAmount);
  if (record.type === 'deposit') {
    const at = location(record, record.status);
    return at.kind === 'customer' ? transfer(at, platform('deposits', record.token, LEASED_SHARD), quantity) : [];
  }
  if (record.type === 'withdrawal') {
    const at = location(record, record.status);
    return at.kind !== 'customer' ? transfer(at, customer(record.userId, record.token), quantity) : [];
  }
  if (record.type === 'swap') {
    const toToken = String(record.details?.toToken);
    const toQty = toMoney(String(record.details?.toCoinAmount));
    return [
      ...transfer(customer(record.userId, toToken), platform('swap_pool', toToken, LEASED_SHARD), toQty),
      ...transfer(platform('swap_pool', record.token, LEASED_SHARD), customer(record.userId, record.token), quantity),
    ];
  }
  return record.direction === 'in'
    ? transfer(customer(record.userId, record.token), platform('adjustments', record.token, LEASED_SHARD), quantity)
    : transfer(platform('adjustments', record.token, LEASED_SHARD), customer(record.userId, record.token), quantity);
}

/** The tokens a movement credits to a customer (they must still be supported). */
export function creditedTokens(legs: Leg[]): string[] {
  return [...new Set(legs.filter((leg) => leg.account.kind === 'customer' && leg.amount.isPositive()).map((leg) => leg.account.token))];
}

/**
 * What a deposit writes, whichever path writes it: the transaction row, the customer's notification, the audit entry
 * and (approved only) the credit from the platform's deposits account.
 */
export function depositRows(
  actor: Actor,
  user: CustomerRecord,
  target: { token: WalletToken; network: string; address: string | null },
  status: DepositDto['status'],
  quantity: Money,
  price: Money,
) {
  const { token, network, address } = target;
  const id = randomUUID();
  const usdAt = usdValue(quantity, price);
  const legs = status === 'approved' ? transfer(platform('deposits', token.id, LEASED_SHARD), customer(user.id, token.id), quantity) : [];
  return {
    record: {
      id,
      userId: user.id,
      type: 'deposit' as const,
      token: token.id,
      network,
      address,
      coinAmount: plain(quantity),
      usdAmount: plain(usdAt),
      price: plain(price),
      status,
      direction: 'in' as const,
      note: null,
      details: null,
      createdBy: actor.id,
    },
    notice: {
      userId: user.id,
      title: `Deposit ${status}`,
      message: `A deposit of ${describe(plain(quantity), token.id, token.symbol.toUpperCase())} (${usdText(plain(usdAt))}) was recorded with status ${status}.`,
      status,
      createdBy: actor.id,
    },
    audit: {
      action: 'transaction.deposit',
      targetType: 'transaction',
      targetId: id,
      after: { userId: user.id, token: token.id, coinAmount: plain(quantity), usd: plain(usdAt), status },
    },
    legs,
    entry: { kind: 'deposit_credit', transactionId: id, reason: 'deposit approved', createdBy: actor.id, legs },
  };
}

/**
 * What a status change writes besides the row, whichever path writes it: the customer's notification, the audit entry
 * and the movement from where the quantity sits now to where the new status puts it (no legs: it stays), with the
 * error when the customer no longer holds it.
 */
/** The movement of a status change: from where the quantity sits now to where the new status puts it (none: it stays). */
export function statusChangeLegs(record: Omit<TransactionRecord, 'seq'>, to: TransactionStatus): Leg[] {
  const from = location(record, record.status);
  const target = location(record, to);
  return sameAccount(from, target) ? [] : transfer(from, target, toMoney(record.coinAmount));
}

export function statusChangeRows(actor: Actor, record: Omit<TransactionRecord, 'seq'>, symbol: string, to: TransactionStatus, txHash: string | undefined) {
  const amountText = describe(record.coinAmount, record.token, symbol);
  const target = location(record, to);
  return {
    amountText,
    // Crediting the customer or making it pending again exposes the token: it must still be supported.
    exposesToken: target.kind === 'customer' || to === 'pending',
    notice: {
      userId: record.userId,
      title: `Transaction ${to}`,
      message: `Your ${TYPE_LABEL[record.type]} of ${amountText} (${usdText(record.usdAmount)}) is now ${to}.${txHash ? ` Transaction hash: ${txHash}${explorerLine(record.network, txHash)}` : ''}`,
      status: to,
      createdBy: actor.id,
    },
    audit: {
      action: 'transaction.status',
      targetType: 'transaction',
      targetId: record.id,
      before: { status: record.status },
      after: { status: to, ...(txHash ? { txHash } : {}) },
    },
    entry: {
      kind: `${record.type}_${record.status}_to_${to}`,
      transactionId: record.id,
      reason: `status ${record.status} → ${to}`,
      createdBy: actor.id,
      legs: statusChangeLegs(record, to),
    },
    onShort: () =>
      new ConflictError(
        record.type === 'deposit'
          ? `The customer no longer holds the ${amountText} this deposit credited, so it cannot leave approved.`
          : `The customer no longer holds the ${amountText} this withdrawal needs, so it cannot be ${to === 'pending' ? 'put back to pending' : 'approved'}.`,
      ),
  };
}

/**
 * What a void writes besides marking the row, whichever path writes it: the customer's notification, the audit entry,
 * the reversing movement (and the tokens it credits to the customer, which must still be supported).
 */
export function voidRows(actor: Actor, record: Omit<TransactionRecord, 'seq'>, symbolOf: (token: string) => string) {
  const amountText = describe(record.coinAmount, record.token, symbolOf(record.token));
  const legs = voidLegs(record);
  return {
    symbolOf,
    credited: creditedTokens(legs),
    notice: {
      userId: record.userId,
      title: 'Transaction cancelled',
      message: `Your ${TYPE_LABEL[record.type]} of ${amountText} (${usdText(record.usdAmount)}) was cancelled by an administrator.`,
      createdBy: actor.id,
    },
    audit: {
      action: 'transaction.void',
      targetType: 'transaction',
      targetId: record.id,
      before: { status: record.status, voided: false },
      after: { status: record.status, voided: true },
    },
    entry: { kind: `${record.type}_void`, transactionId: record.id, reason: 'voided by an administrator', createdBy: actor.id, legs },
    onShort: (token: string) =>
      new ConflictError(`This transaction cannot be deleted: the customer no longer holds the ${symbolOf(token)} it would take back.`),
  };
}

/** A status change or void would give a customer money (or a pending transaction) in a token no longer supported. */
export const removedToken = (symbol: string) =>
  new ConflictError(`${symbol} is no longer a supported token, so this would leave the customer holding it. Add the token again first.`);

/** The `onGuard` of a one-statement write crediting `symbol`: the token was removed since it was looked up (400). */
export const tokenGoneMeanwhile = (symbol: string) => (code: string) =>
  code === TOKEN_GONE_STATE ? new InvalidInputError(`${symbol} is no longer a supported token: it was removed meanwhile. Reload and try again.`) : undefined;

/** A four-eyes approval being applied by the second admin: in its transaction, with the effect it binds (null: a request from before effects were bound). */
export interface Applying {
  tx: Tx;
  effect: BoundEffect | null;
}

/** Nothing of an approval is applied when the movement decided now is not the one it bound. */
export function requireBoundLines(applying: Applying | undefined, legs: Leg[]): void {
  if (applying?.effect && !sameLines(applying.effect.lines, legs)) throw new StaleApprovalError(MOVEMENT_CHANGED_SINCE_REQUEST);
}
