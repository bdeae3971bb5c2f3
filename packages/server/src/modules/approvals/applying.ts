import type { Tx } from '../../db/database';
import { type BoundEffect, MOVEMENT_CHANGED_SINCE_REQUEST, sameLines, StaleApprovalError } from '../ledger/four-eyes-policy';
import type { Leg } from '../ledger/ledger.service';

/** A four-eyes approval being applied by the second admin: in its transaction, with the effect it binds (null: a request from before effects were bound). */
export interface Applying {
  tx: Tx;
  effect: BoundEffect | null;
}

/** Nothing of an approval is applied when the movement decided now is not the one it bound. */
export function requireBoundLines(applying: Applying | undefined, legs: Leg[]): void {
  if (applying?.effect && !sameLines(applying.effect.lines, legs)) throw new StaleApprovalError(MOVEMENT_CHANGED_SINCE_REQUEST);
}
