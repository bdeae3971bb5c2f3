import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq } from 'drizzle-orm';
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
}
