import { ConflictError } from '../../common/errors';
import type { Tx } from '../../db/database';
import { type BoundEffect, MOVEMENT_CHANGED_SINCE_REQUEST, sameLines, StaleApprovalError } from '../ledger/four-eyes-policy';
import type { Leg } from '../ledger/ledger.service';

/**
 * What the admin money commands share besides their SQL functions: the labels and errors their texts use, an approval
 * being applied. Pure: no database access.
 */

/** A transaction's type as people read it (cp_type_label writes the same in the functions' notifications). */
export const TYPE_LABEL: Record<string, string> = { deposit: 'deposit', withdrawal: 'withdrawal', swap: 'swap', adjustment: 'balance adjustment' };

/** A status change or void would give a customer money (or a pending transaction) in a token no longer supported. */
export const removedToken = (symbol: string) =>
  new ConflictError(`${symbol} is no longer a supported token, so this would leave the customer holding it. Add the token again first.`);

/** A four-eyes approval being applied by the second admin: in its transaction, with the effect it binds (null: a request from before effects were bound). */
export interface Applying {
  tx: Tx;
  effect: BoundEffect | null;
}

/** Nothing of an approval is applied when the movement decided now is not the one it bound. */
export function requireBoundLines(applying: Applying | undefined, legs: Leg[]): void {
  if (applying?.effect && !sameLines(applying.effect.lines, legs)) throw new StaleApprovalError(MOVEMENT_CHANGED_SINCE_REQUEST);
}
