import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { feeSchedule } from '../../db/schema';

export type FeeScheduleRecord = typeof feeSchedule.$inferSelect;
export type FeeValues = Pick<
  FeeScheduleRecord,
  'swapSpreadBps' | 'swapFeeBps' | 'swapFeeMinUsd' | 'withdrawalFee' | 'withdrawalNetworks' | 'houseMinPositionUsd' | 'inventory'
>;

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** The fee schedule, the house holdings and exposure alerts (drizzle/0050_fees.sql): all their SQL. */
@Injectable()
export class FeesRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async list(executor: Executor = this.db): Promise<FeeScheduleRecord[]> {
    return executor.select().from(feeSchedule);
  }

  /** The row, locked (undefined: none yet). */
  async lock(token: string, executor: Executor): Promise<FeeScheduleRecord | undefined> {
    const [row] = await executor
      .select()
      .from(feeSchedule)
      .where(sql`${feeSchedule.token} = ${token}`)
      .for('update');
    return row;
  }

  async upsert(token: string, values: FeeValues, setBy: string | null, executor: Executor): Promise<FeeScheduleRecord> {
    const [row] = await executor
      .insert(feeSchedule)
      .values({ token, ...values, setBy, updatedAt: new Date() })
      .onConflictDoUpdate({ target: feeSchedule.token, set: { ...values, setBy, updatedAt: new Date() } })
      .returning();
    return row;
  }

  /** The default row from the configuration, unless an administrator set it (then theirs stands). */
  async writeConfiguredDefaults(values: FeeValues): Promise<void> {
    await this.db
      .insert(feeSchedule)
      .values({ token: '*', ...values, setBy: null })
      .onConflictDoUpdate({ target: feeSchedule.token, set: { ...values, updatedAt: new Date() }, where: sql`${feeSchedule.setBy} is null` });
  }

  /** The house position of each token in coins (cp_house_position; null: holdings unknown). */
  async positions(tokens: string[], executor: Executor = this.db): Promise<Map<string, string | null>> {
    if (!tokens.length) return new Map();
    const rows = rowsOf<{ token: string; position: string | null }>(
      await executor.execute(
        sql`select v.t as token, cp_house_position(v.t)::text as position from (values ${sql.join(
          tokens.map((token) => sql`(${token})`),
          sql`, `,
        )}) as v(t)`,
      ),
    );
    return new Map(rows.map((row) => [row.token, row.position]));
  }

  /** Opens the alert of a token (true: it was not open: alert now). */
  async openAlert(token: string, executor: Executor = this.db): Promise<boolean> {
    const rows = rowsOf(await executor.execute(sql`insert into house_exposure_alerts (token) values (${token}) on conflict do nothing returning token`));
    return rows.length > 0;
  }

  /** Closes the alerts of tokens whose position is back at or above its minimum (or whose holdings are no longer known). */
  async closeRecovered(executor: Executor = this.db): Promise<string[]> {
    const rows = rowsOf<{ token: string }>(
      await executor.execute(sql`
        delete from house_exposure_alerts a
        using coins c
        where c.id = a.token
          and (cp_house_position(a.token) is null
               or cp_house_position(a.token) * c.current_price >= (cp_fee_schedule(a.token)).min_position_usd)
        returning a.token`),
    );
    return rows.map((row) => row.token);
  }

  /** Active administrators, for the alert's notifications and mails. */
  async activeAdmins(executor: Executor = this.db): Promise<Array<{ id: string; name: string; email: string }>> {
    return rowsOf(await executor.execute(sql`select id, name, email from users where role = 'admin' and deactivated_at is null order by created_at`));
  }
}
