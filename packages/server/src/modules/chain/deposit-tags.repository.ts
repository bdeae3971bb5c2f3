import { Inject, Injectable } from '@nestjs/common';
import { and, eq, inArray } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { depositTags, users } from '../../db/schema';

export interface DepositTagOwner {
  network: string;
  tag: number;
  userId: string;
  name: string;
  email: string;
  role: 'user' | 'admin';
  deactivatedAt: Date | null;
}

/** All SQL of the customers' destination tags and memos on the memo networks. */
@Injectable()
export class DepositTagsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async forUser(userId: string, networks: string[], executor: Executor = this.db): Promise<Array<{ network: string; tag: number }>> {
    if (!networks.length) return [];
    return executor
      .select({ network: depositTags.network, tag: depositTags.tag })
      .from(depositTags)
      .where(and(eq(depositTags.userId, userId), inArray(depositTags.network, networks)));
  }

  /**
   * Gives the customer `tag` on the network unless they already have one there or another customer has this one:
   * true when this call inserted it.
   */
  async insert(userId: string, network: string, tag: number, executor: Executor = this.db): Promise<boolean> {
    const rows = await executor.insert(depositTags).values({ userId, network, tag }).onConflictDoNothing().returning({ tag: depositTags.tag });
    return rows.length > 0;
  }

  async owner(network: string, tag: number, executor: Executor = this.db): Promise<DepositTagOwner | undefined> {
    const [row] = await executor
      .select({
        network: depositTags.network,
        tag: depositTags.tag,
        userId: depositTags.userId,
        name: users.name,
        email: users.email,
        role: users.role,
        deactivatedAt: users.deactivatedAt,
      })
      .from(depositTags)
      .innerJoin(users, eq(users.id, depositTags.userId))
      .where(and(eq(depositTags.network, network), eq(depositTags.tag, tag)));
    return row;
  }
}
