import type { Tx } from '../../db/database';
import type { Actor } from '../../common/principal';

/**
 * The port through which a four-eyes approval (admin's ApprovalDecisionsService) applies a change of the fee schedule,
 * bound by the fees module (which sits above approvals). A Nest injection token as well.
 */
export abstract class FeeScheduleChanges {
  /** Applies the change of one row in the approval's transaction, audited. */
  abstract apply(actor: Actor, token: string, change: Record<string, unknown>, tx: Tx): Promise<unknown>;
}
