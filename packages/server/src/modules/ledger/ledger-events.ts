import type { Executor } from '../../db/database';

/** One customer account whose balance a movement changed. */
export interface BalanceChange {
  userId: string;
  token: string;
}

/**
 * The port through which the ledger tells the rest of the app that balances changed, without knowing who listens
 * (the notifications module binds it to the customers' live event streams). A Nest injection token as well.
 */
export abstract class LedgerEvents {
  /** Announces the changes when (and if) the transaction of `executor` commits. */
  abstract publishBalanceChanges(changes: BalanceChange[], executor: Executor): Promise<void>;
  /** Announces changes that have already committed. */
  abstract announceBalanceChanges(changes: BalanceChange[]): void;
}
