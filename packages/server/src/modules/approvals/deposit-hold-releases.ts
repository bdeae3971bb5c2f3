import type { Actor } from '../../common/principal';
import type { Applying } from './applying';

/**
 * The port through which a four-eyes approval (admin's ApprovalDecisionsService) releases a held chain deposit, without
 * the admin module knowing the chain module, which binds it (both sit above approvals). A Nest injection token as well.
 */
export abstract class DepositHoldReleases {
  /** Releases the deposit in the approval's transaction, exactly as bound, or throws (409: nothing applied). */
  abstract release(actor: Actor, depositId: string, input: { reason: string }, applying: Applying): Promise<unknown>;
}
