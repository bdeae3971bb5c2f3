import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { chainDeposits, coins, transactions, users } from '../../db/schema';
import type { DepositHold } from '../wallet/hold-words';
import type { ChainDepositRow } from './chain-deposit-fields';

/** A held deposit as the release and the back office read it. */
export interface HeldDepositRecord extends ChainDepositRow {
  userEmail: string;
  userName: string;
  usdAmount: string | null;
  hold: DepositHold;
  heldAt: Date | null;
}

const heldColumns = {
  id: chainDeposits.id,
  network: chainDeposits.network,
  txid: chainDeposits.txid,
  outputIndex: chainDeposits.outputIndex,
  userId: chainDeposits.userId,
  userEmail: users.email,
  userName: users.name,
  token: chainDeposits.token,
  symbol: coins.symbol,
  amount: chainDeposits.amount,
  usdAmount: transactions.usdAmount,
  hold: chainDeposits.hold,
  heldAt: chainDeposits.heldAt,
  transactionId: chainDeposits.transactionId,
};

/** The held chain deposits (state `held`, drizzle/0063_deposit_holds.sql), oldest first. */
@Injectable()
export class DepositHoldsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async list(filter: { network?: string; hold?: DepositHold; id?: string; limit?: number } = {}, executor: Executor = this.db): Promise<HeldDepositRecord[]> {
    const rows = await executor
      .select(heldColumns)
      .from(chainDeposits)
      .innerJoin(users, eq(users.id, chainDeposits.userId))
      .leftJoin(coins, eq(coins.id, chainDeposits.token))
      .leftJoin(transactions, eq(transactions.id, chainDeposits.transactionId))
      .where(
        and(
          filter.id ? eq(chainDeposits.id, filter.id) : eq(chainDeposits.state, 'held'),
          filter.network ? eq(chainDeposits.network, filter.network) : undefined,
          filter.hold ? eq(chainDeposits.hold, filter.hold) : undefined,
        ),
      )
      .orderBy(asc(chainDeposits.heldAt), asc(chainDeposits.createdAt))
      .limit(filter.limit ?? 500);
    return rows as HeldDepositRecord[];
  }

  /** The active administrators (told of a deposit from a sanctioned address). */
  async activeAdmins(executor: Executor = this.db): Promise<Array<{ id: string; name: string; email: string }>> {
    return executor
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .where(and(eq(users.role, 'admin'), isNull(users.deactivatedAt)))
      .orderBy(asc(users.createdAt));
  }

  /** Whether the deposit is still held (the back office's view after a release). */
  async state(id: string, executor: Executor = this.db): Promise<string | undefined> {
    const [row] = await executor.select({ state: chainDeposits.state }).from(chainDeposits).where(eq(chainDeposits.id, id));
    return row?.state;
  }

  /**
   * Held deposits whose block was orphaned go back to seen like confirming ones (the crediting decides their hold
   * again once they are mined and confirmed): their History rows lose the hold.
   */
  async unhold(transactionIds: string[], executor: Executor): Promise<void> {
    if (!transactionIds.length) return;
    await executor
      .update(transactions)
      .set({ details: sql`coalesce(${transactions.details}, '{}'::jsonb) - 'hold'`, updatedAt: new Date() })
      .where(inArray(transactions.id, transactionIds));
  }
}
