import type { UpdateBalanceDto } from '@coinpurse/contract';
import { is, SQL } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { ConflictError, InvalidInputError } from '../../common/errors';
import type { Tx } from '../../db/database';
import type { Actor } from '../../common/principal';
import { type BoundEffect, MOVEMENT_CHANGED_SINCE_REQUEST, sameLines, StaleApprovalError } from '../ledger/four-eyes-policy';
import { customer, type Leg, LEASED_SHARD, platform, transfer } from '../ledger/ledger.service';
import { type Money, plain, usdValue } from '../ledger/money';
import { jsonWith } from '../wallet/audit-statement';
import { describe, usdText } from '../wallet/wallet-common';
import { TOKEN_GONE_STATE, type WalletToken } from '../wallet/wallet-tokens.repository';
import type { CustomerRecord } from '../wallet/wallet-users.repository';

/**
 * What the admin money commands share besides their SQL functions: the labels and errors their texts use, an approval
 * being applied, and what a balance adjustment writes. Pure: no database access.
 */

/** A transaction's type as people read it (cp_type_label writes the same in the functions' notifications). */
export const TYPE_LABEL: Record<string, string> = { deposit: 'deposit', withdrawal: 'withdrawal', swap: 'swap', adjustment: 'balance adjustment' };

/**
 * What a balance adjustment of `delta` (not zero) writes, whichever path writes it: the transaction row, the customer's
 * notification, the audit entry — given the balance before and after, as values or as jsonb expressions of the one
 * statement that alone knows them — and the movement with the platform's adjustments account.
 */
export function adjustmentRows(
  actor: Actor,
  user: CustomerRecord,
  token: WalletToken,
  type: UpdateBalanceDto['type'],
  reason: string,
  requestedUsd: Money,
  delta: Money,
  price: Money,
) {
  const symbol = token.symbol.toUpperCase();
  const id = randomUUID();
  const magnitude = delta.abs();
  const usdAt = usdValue(magnitude, price);
  const direction = delta.isPositive() ? ('in' as const) : ('out' as const);
  const legs =
    direction === 'in'
      ? transfer(platform('adjustments', token.id, LEASED_SHARD), customer(user.id, token.id), magnitude)
      : transfer(customer(user.id, token.id), platform('adjustments', token.id, LEASED_SHARD), magnitude);
  const balanceOf = (balance: string | SQL, rest: Record<string, unknown>) =>
    is(balance, SQL) ? jsonWith({ token: token.id, ...rest }, { balance }) : { token: token.id, balance, ...rest };
  return {
    record: {
      id,
      userId: user.id,
      type: 'adjustment' as const,
      token: token.id,
      network: null,
      address: null,
      coinAmount: plain(magnitude),
      usdAmount: plain(usdAt),
      price: plain(price),
      status: 'approved' as const,
      direction,
      note: reason,
      details: { mode: type === 'yes' ? 'add' : 'set', requestedUsd: plain(requestedUsd) },
      createdBy: actor.id,
    },
    notice: {
      userId: user.id,
      title: 'Balance updated',
      message: `${reason} Your ${symbol} balance was ${direction === 'in' ? 'credited with' : 'debited by'} ${describe(plain(magnitude), token.id, symbol)} (${usdText(plain(usdAt))}).`,
      status: 'approved' as const,
      createdBy: actor.id,
    },
    audit: (before: string | SQL, after: string | SQL) => ({
      action: 'balance.adjust',
      targetType: 'user',
      targetId: user.id,
      before: balanceOf(before, {}),
      after: balanceOf(after, { transactionId: id, reason }),
    }),
    entry: { kind: 'adjustment', transactionId: id, reason, createdBy: actor.id, legs },
    onShort: () => new ConflictError(`Insufficient ${symbol} balance`),
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
