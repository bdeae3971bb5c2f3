import { Inject, Injectable } from '@nestjs/common';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { depositAddressCounters, depositAddresses, sweeps } from '../../db/schema';

export interface DepositAddressRecord {
  userId: string;
  network: string;
  address: string;
  matchKey: string;
  derivationIndex: number;
  keyFingerprint: string;
}

const columns = {
  userId: depositAddresses.userId,
  network: depositAddresses.network,
  address: depositAddresses.address,
  matchKey: depositAddresses.matchKey,
  derivationIndex: depositAddresses.derivationIndex,
  keyFingerprint: depositAddresses.keyFingerprint,
};

/** All SQL of the customers' deposit addresses and their derivation counters. */
@Injectable()
export class DepositAddressesRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async forUser(userId: string, networks: string[], executor: Executor = this.db): Promise<DepositAddressRecord[]> {
    if (!networks.length) return [];
    return executor
      .select(columns)
      .from(depositAddresses)
      .where(and(eq(depositAddresses.userId, userId), inArray(depositAddresses.network, networks)));
  }

  /** The user's index under a key on any of these networks (EVM networks share one address per customer). */
  async indexUnderKey(userId: string, keyFingerprint: string, networks: string[], executor: Executor): Promise<number | undefined> {
    const [row] = await executor
      .select({ index: depositAddresses.derivationIndex })
      .from(depositAddresses)
      .where(and(eq(depositAddresses.userId, userId), eq(depositAddresses.keyFingerprint, keyFingerprint), inArray(depositAddresses.network, networks)))
      .limit(1);
    return row?.index;
  }

  /** Takes the next derivation index of a scope (the counter row stays locked until the transaction ends). */
  async takeIndex(scope: string, executor: Executor): Promise<number> {
    const [row] = await executor
      .insert(depositAddressCounters)
      .values({ scope, nextIndex: 1 })
      .onConflictDoUpdate({ target: depositAddressCounters.scope, set: { nextIndex: sql`${depositAddressCounters.nextIndex} + 1` } })
      .returning({ next: depositAddressCounters.nextIndex });
    return row.next - 1;
  }

  /** Inserts the address unless the user already has one on the network (then undefined). */
  async insert(record: DepositAddressRecord, executor: Executor): Promise<DepositAddressRecord | undefined> {
    const [row] = await executor
      .insert(depositAddresses)
      .values(record)
      .onConflictDoNothing({ target: [depositAddresses.userId, depositAddresses.network] })
      .returning(columns);
    return row;
  }

  /**
   * Which of these transactions are the platform's own payments to deposit addresses (the gas top-ups of EVM sweeps,
   * stored with their txid before they are sent): coins of the platform, never a customer's deposit.
   */
  async ownPayments(network: string, txids: string[], executor: Executor = this.db): Promise<Set<string>> {
    if (!txids.length) return new Set();
    const rows = await executor
      .select({ txid: sweeps.topupTxid })
      .from(sweeps)
      .where(and(eq(sweeps.network, network), inArray(sweeps.topupTxid, txids)));
    return new Set(rows.map((row) => row.txid!));
  }

  /**
   * The owners of these output scripts (or EVM addresses) on a network: one statement with one array parameter, on the
   * unique (network, match_key) index, however many outputs a block has.
   */
  async ownersOf(network: string, matchKeys: string[], executor: Executor = this.db): Promise<DepositAddressRecord[]> {
    if (!matchKeys.length) return [];
    return executor
      .select(columns)
      .from(depositAddresses)
      .where(and(eq(depositAddresses.network, network), sql`${depositAddresses.matchKey} = any(${sql.param(matchKeys)}::text[])`));
  }
}
