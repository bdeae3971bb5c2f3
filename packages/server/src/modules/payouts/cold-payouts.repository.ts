import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, gte, inArray, isNotNull, isNull, notInArray, sql, sum } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { coins, payouts, transactions, users } from '../../db/schema';
import type { PayoutRecord } from './payouts.repository';

/** The SQL of the cold path: what the hot signer paid lately, the cold payouts and their row locks. */
@Injectable()
export class ColdPayoutsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** What the hot signer signed on `network` since `since` (base units), failed payouts aside. */
  async hotSignedSince(network: string, since: Date, executor: Executor): Promise<bigint> {
    const [row] = await executor
      .select({ total: sum(payouts.amountBase) })
      .from(payouts)
      .where(and(eq(payouts.network, network), isNull(payouts.coldReason), gte(payouts.signedAt, since), notInArray(payouts.state, ['failed'])));
    return BigInt(row?.total ?? '0');
  }

  /** The payout of a withdrawal, row-locked (waits for the payout job's step on it to commit). */
  async lockByTransaction(transactionId: string, executor: Executor): Promise<PayoutRecord | undefined> {
    const [row] = await executor.select().from(payouts).where(eq(payouts.transactionId, transactionId)).for('update');
    return row;
  }

  /** The unsigned transactions of `network` handed out and not broadcast yet (their inputs stay reserved). */
  async preparedUnsent(network: string, executor: Executor = this.db): Promise<string[]> {
    const rows = await executor
      .select({ unsignedTx: payouts.unsignedTx })
      .from(payouts)
      .where(and(eq(payouts.network, network), isNotNull(payouts.unsignedTx), inArray(payouts.state, ['awaiting_cold_signature', 'signed'])));
    return rows.map((r) => r.unsignedTx!);
  }

  /**
   * The cold payouts still open (waiting for their signature, or signed and not completed), oldest first, with the
   * withdrawal's token and customer. One waiting for a withdrawal no longer approved is left out: nothing is due.
   */
  async open(executor: Executor = this.db) {
    return executor
      .select({
        payout: payouts,
        token: transactions.token,
        symbol: coins.symbol,
        userEmail: users.email,
      })
      .from(payouts)
      .innerJoin(transactions, eq(transactions.id, payouts.transactionId))
      .leftJoin(users, eq(users.id, transactions.userId))
      .leftJoin(coins, eq(coins.id, transactions.token))
      .where(
        and(
          isNotNull(payouts.coldReason),
          inArray(payouts.state, ['awaiting_cold_signature', 'signed', 'broadcast', 'confirming']),
          sql`(${payouts.state} <> 'awaiting_cold_signature' or (${transactions.status} = 'approved' and ${transactions.voidedAt} is null))`,
        ),
      )
      .orderBy(asc(payouts.createdAt), asc(payouts.id))
      .limit(500);
  }
}
