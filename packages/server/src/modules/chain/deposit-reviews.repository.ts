import { Inject, Injectable } from '@nestjs/common';
import { and, desc, eq, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor, type Tx } from '../../db/database';
import { alias } from 'drizzle-orm/pg-core';
import { chainDeposits, coins, transactions, users } from '../../db/schema';
import type { ChainDepositRow } from './chain-deposit-fields';

/** A flagged deposit (credited, then orphaned) as the review list and the decision's texts read it. */
export interface DepositReviewRecord extends ChainDepositRow {
  userEmail: string;
  userName: string;
  state: string;
  blockHeight: number | null;
  /** The History row's USD value (the four-eyes value when the token has no price now). */
  usdAmount: string | null;
  resolution: 'taken_back' | 'kept' | null;
  reason: string | null;
  resolvedAt: Date | null;
  resolvedBy: string | null;
  createdAt: Date;
}

/** A deposit orphaned before credit whose time to be mined again ran out. */
export interface DroppableDeposit {
  id: string;
  userId: string;
  token: string;
  amount: string;
  txid: string;
  transactionId: string | null;
}

/** A deposit seen waiting to be mined (never in a block, not orphaned): what its drop needs. */
export interface UnminedDeposit extends DroppableDeposit {
  outputIndex: number;
  seenAtHeight: number | null;
}

const reviewers = alias(users, 'reviewers');

/** The SQL of the deposits an admin decides on (orphaned after credit) and of those dropped when never mined again. */
@Injectable()
export class DepositReviewsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Marks deposits just sent back to seen by a reorganisation: orphaned at the fork's height (the drop counts from it). */
  async noteOrphaned(ids: string[], height: number, tx: Tx): Promise<void> {
    if (!ids.length) return;
    await tx.update(chainDeposits).set({ orphanedAtHeight: height }).where(inArray(chainDeposits.id, ids));
  }

  /** Deposits of a network orphaned before credit, in no block since, orphaned at least `dropAfter` blocks below `height`. */
  async droppable(network: string, height: number, dropAfter: number): Promise<DroppableDeposit[]> {
    return this.db
      .select({
        id: chainDeposits.id,
        userId: chainDeposits.userId,
        token: chainDeposits.token,
        amount: chainDeposits.amount,
        txid: chainDeposits.txid,
        transactionId: chainDeposits.transactionId,
      })
      .from(chainDeposits)
      .where(
        and(
          eq(chainDeposits.network, network),
          eq(chainDeposits.state, 'seen'),
          isNull(chainDeposits.blockHeight),
          isNotNull(chainDeposits.orphanedAtHeight),
          lte(chainDeposits.orphanedAtHeight, height - dropAfter),
        ),
      );
  }

  /** A network's deposits seen in the mempool and in no block since (orphaned ones excepted: `droppable` has those). */
  async unmined(network: string): Promise<UnminedDeposit[]> {
    return this.db
      .select({
        id: chainDeposits.id,
        userId: chainDeposits.userId,
        token: chainDeposits.token,
        amount: chainDeposits.amount,
        txid: chainDeposits.txid,
        outputIndex: chainDeposits.outputIndex,
        transactionId: chainDeposits.transactionId,
        seenAtHeight: chainDeposits.seenAtHeight,
      })
      .from(chainDeposits)
      .where(
        and(eq(chainDeposits.network, network), eq(chainDeposits.state, 'seen'), isNull(chainDeposits.blockHeight), isNull(chainDeposits.orphanedAtHeight)),
      );
  }

  /** Flagged deposits, newest first: those waiting for a decision and those decided. */
  async list(filter: { id?: string; limit?: number } = {}, executor: Executor = this.db): Promise<DepositReviewRecord[]> {
    const rows = await executor
      .select({
        id: chainDeposits.id,
        network: chainDeposits.network,
        txid: chainDeposits.txid,
        outputIndex: chainDeposits.outputIndex,
        userId: chainDeposits.userId,
        userName: users.name,
        userEmail: users.email,
        token: chainDeposits.token,
        symbol: coins.symbol,
        amount: chainDeposits.amount,
        state: chainDeposits.state,
        blockHeight: chainDeposits.blockHeight,
        transactionId: chainDeposits.transactionId,
        usdAmount: transactions.usdAmount,
        resolution: chainDeposits.reviewResolution,
        reason: chainDeposits.reviewReason,
        resolvedAt: chainDeposits.reviewedAt,
        resolvedBy: reviewers.email,
        createdAt: chainDeposits.createdAt,
      })
      .from(chainDeposits)
      .innerJoin(users, eq(users.id, chainDeposits.userId))
      .leftJoin(coins, eq(coins.id, chainDeposits.token))
      .leftJoin(transactions, eq(transactions.id, chainDeposits.transactionId))
      .leftJoin(reviewers, eq(reviewers.id, chainDeposits.reviewedBy))
      .where(and(isNotNull(chainDeposits.review), filter.id ? eq(chainDeposits.id, filter.id) : undefined))
      .orderBy(sql`${chainDeposits.reviewResolution} is not null`, desc(chainDeposits.createdAt))
      .limit(filter.limit ?? 200);
    return rows as DepositReviewRecord[];
  }
}
