import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { rowsOf } from '../../db/rows';

/** The SQL a token change asks of customers' money before it deletes or renames a token. */
@Injectable()
export class TokenHoldingsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * Whether customers still have money in a token: a non-zero customer balance, or a pending (not voided)
   * transaction that approving or rejecting would credit back.
   */
  async customerExposure(coinId: string, executor: Executor = this.db): Promise<{ balances: boolean; pending: boolean }> {
    const result = await executor.execute(sql`
      select
        exists (select 1 from ledger_accounts where kind = 'customer' and token = ${coinId} and balance <> 0) as balances,
        exists (select 1 from transactions where token = ${coinId} and status = 'pending' and voided_at is null) as pending`);
    const row = rowsOf(result)[0] as { balances: unknown; pending: unknown };
    return { balances: row.balances === true || row.balances === 't', pending: row.pending === true || row.pending === 't' };
  }
}
