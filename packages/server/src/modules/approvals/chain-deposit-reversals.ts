import type { Actor } from '../../common/principal';
import type { Applying } from './applying';

/**
 * The port through which a four-eyes approval (admin's ApprovalDecisionsService) applies "take back" on a chain deposit
 * orphaned after credit, without the admin module knowing the chain module, which binds it (both sit above approvals).
 * A Nest injection token as well.
 */
export abstract class ChainDepositReversals {
  /** Reverses the deposit's credit in the approval's transaction, exactly as bound, or throws (409: nothing applied). */
  abstract takeBack(actor: Actor, depositId: string, input: { reason: string }, applying: Applying): Promise<unknown>;
}
