import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { MoneyGuard } from '../ledger/ledger.repository';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { addressBook, withdrawalSettings } from '../../db/schema';

export interface AddressBookRecord {
  id: string;
  userId: string;
  label: string;
  token: string;
  network: string;
  address: string;
  memo: string | null;
  createdAt: Date;
  usableAt: Date;
}

const columns = {
  id: addressBook.id,
  userId: addressBook.userId,
  label: addressBook.label,
  token: addressBook.token,
  network: addressBook.network,
  address: addressBook.address,
  memo: addressBook.memo,
  createdAt: addressBook.createdAt,
  usableAt: addressBook.usableAt,
};

/** All SQL of the withdrawal address book and the allowlist setting. */
/** SQLSTATEs of `sendAllowedGuard` (raised by `cp_require`). */
export const NOT_IN_ADDRESS_BOOK_STATE = 'CPA01';
export const ADDRESS_ON_HOLD_STATE = 'CPA02';

@Injectable()
export class AddressBookRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  list(userId: string, executor: Executor = this.db): Promise<AddressBookRecord[]> {
    return executor.select(columns).from(addressBook).where(eq(addressBook.userId, userId)).orderBy(asc(addressBook.createdAt), asc(addressBook.id));
  }

  /** Inserts unless the same token, network, address and memo is saved already (then undefined). */
  async insertIfAbsent(values: Omit<AddressBookRecord, 'id'>, executor: Executor = this.db): Promise<AddressBookRecord | undefined> {
    const [row] = await executor.insert(addressBook).values(values).onConflictDoNothing().returning(columns);
    return row;
  }

  async delete(userId: string, id: string, executor: Executor = this.db): Promise<AddressBookRecord | undefined> {
    const [row] = await executor
      .delete(addressBook)
      .where(and(eq(addressBook.id, id), eq(addressBook.userId, userId)))
      .returning(columns);
    return row;
  }

  /** The saved entry for exactly this destination (memo included), if any. */
  async findMatch(
    userId: string,
    target: { token: string; network: string; address: string; memo: string | null },
    executor: Executor = this.db,
  ): Promise<AddressBookRecord | undefined> {
    const [row] = await executor
      .select(columns)
      .from(addressBook)
      .where(
        and(
          eq(addressBook.userId, userId),
          eq(addressBook.token, target.token),
          eq(addressBook.network, target.network),
          eq(addressBook.address, target.address),
          sql`coalesce(${addressBook.memo}, '') = ${target.memo ?? ''}`,
        ),
      );
    return row;
  }

  async allowlistEnabled(userId: string, executor: Executor = this.db): Promise<boolean> {
    const [row] = await executor.select({ enabled: withdrawalSettings.allowlistEnabled }).from(withdrawalSettings).where(eq(withdrawalSettings.userId, userId));
    return row?.enabled ?? false;
  }

  /** Sets the allowlist flag; returns the previous value (row locked for the change). */
  async setAllowlist(userId: string, enabled: boolean, executor: Executor): Promise<boolean> {
    await executor.insert(withdrawalSettings).values({ userId, allowlistEnabled: false }).onConflictDoNothing();
    const [before] = await executor
      .select({ enabled: withdrawalSettings.allowlistEnabled })
      .from(withdrawalSettings)
      .where(eq(withdrawalSettings.userId, userId))
      .for('update');
    await executor.update(withdrawalSettings).set({ allowlistEnabled: enabled, updatedAt: new Date() }).where(eq(withdrawalSettings.userId, userId));
    return before.enabled;
  }

  /**
   * `allowlistEnabled` + `findMatch` as a guard of a one-statement send: with the allowlist on, aborts with
   * NOT_IN_ADDRESS_BOOK_STATE when the target is not saved, or ADDRESS_ON_HOLD_STATE (message: JSON label and
   * usableAtMs) while its hold lasts.
   */
  sendAllowedGuard(userId: string, target: { token: string; network: string; address: string; memo: string | null }): MoneyGuard {
    return (after, name) => [
      sql`${sql.raw(name)} as materialized (
        select case
          when not s.enabled then true
          when m.usable_at is null then cp_require(false, ${NOT_IN_ADDRESS_BOOK_STATE}, '')
          else cp_require(m.usable_at <= now(), ${ADDRESS_ON_HOLD_STATE},
                          json_build_object('label', m.label, 'usableAtMs', floor(extract(epoch from m.usable_at) * 1000))::text)
        end as ok
        from (select coalesce((select allowlist_enabled from withdrawal_settings where user_id = ${userId}::uuid), false) as enabled where ${after}) as s
        left join lateral (
          select label, usable_at from address_book
          where user_id = ${userId}::uuid and token = ${target.token} and network = ${target.network} and address = ${target.address}
            and coalesce(memo, '') = ${target.memo ?? ''}
          limit 1) as m on true)`,
    ];
  }
}
