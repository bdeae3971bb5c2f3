import { Inject, Injectable } from '@nestjs/common';
import { eq, inArray, sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { rowsOf } from '../../db/rows';
import { coins, depositAddresses } from '../../db/schema';

/** A customer's deposit address on a network, as the reserves read it. */
export interface ReserveDepositAddress {
  address: string;
  /** UTXO: the output script (hex); EVM: the lowercase address. */
  matchKey: string;
  derivationIndex: number;
  keyFingerprint: string;
}

/** The audit actions of a reserves episode: a shortfall raised, then its recovery. */
export const RESERVES_SHORTFALL = 'reserves.shortfall';
export const RESERVES_RECOVERED = 'reserves.recovered';

/** All SQL of the Reserves screen and its alert (read-only but for the alert's audit rows, written by AuditService). */
@Injectable()
export class ReservesRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * The holdings of each token read completely, kept for the house position (cp_house_position, drizzle/0050_fees.sql):
   * the money functions compare what customers are owed with the last complete reading.
   */
  async recordHoldings(rows: Array<{ token: string; holdings: string }>, readAt: Date, executor: Executor = this.db): Promise<void> {
    if (!rows.length) return;
    await executor.execute(sql`
      insert into house_holdings (token, on_chain, read_at)
      values ${sql.join(
        rows.map((row) => sql`(${row.token}, ${row.holdings}::numeric, ${readAt.toISOString()}::timestamptz)`),
        sql`, `,
      )}
      on conflict (token) do update set on_chain = excluded.on_chain, read_at = excluded.read_at
      where house_holdings.read_at <= excluded.read_at`);
  }

  /** Every deposit address allocated on the network. */
  depositAddresses(network: string, executor: Executor = this.db): Promise<ReserveDepositAddress[]> {
    return executor
      .select({
        address: depositAddresses.address,
        matchKey: depositAddresses.matchKey,
        derivationIndex: depositAddresses.derivationIndex,
        keyFingerprint: depositAddresses.keyFingerprint,
      })
      .from(depositAddresses)
      .where(eq(depositAddresses.network, network));
  }

  async coinNames(ids: string[], executor: Executor = this.db): Promise<Map<string, { symbol: string; name: string }>> {
    if (!ids.length) return new Map();
    const rows = await executor.select({ id: coins.id, symbol: coins.symbol, name: coins.name }).from(coins).where(inArray(coins.id, ids));
    return new Map(rows.map((row) => [row.id, { symbol: row.symbol, name: row.name }]));
  }

  /** The tokens whose last reserves episode is an open shortfall (raised, not recovered yet). */
  async openShortfalls(executor: Executor = this.db): Promise<Set<string>> {
    const rows = rowsOf(
      await executor.execute(
        sql`select distinct on (target_id) target_id as token, action from audit_log
            where target_type = 'reserves' and action in (${RESERVES_SHORTFALL}, ${RESERVES_RECOVERED})
            order by target_id, id desc`,
      ),
    ) as Array<{ token: string; action: string }>;
    return new Set(rows.filter((row) => row.action === RESERVES_SHORTFALL).map((row) => row.token));
  }
}
