import { Inject, Injectable } from '@nestjs/common';
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { ticketReplies, tickets, users } from '../../db/schema';

export interface TicketRecord {
  id: string;
  userId: string | null;
  email: string;
  subject: string;
  note: string;
  image: string | null;
  status: 'open' | 'closed';
  createdAt: Date;
  closedAt: Date | null;
}

export interface TicketListRow extends TicketRecord {
  /** created_at as PostgreSQL text (microseconds kept), for the page cursor. */
  createdAtKey: string;
  replies: number;
}

export interface TicketReplyRecord {
  id: string;
  message: string;
  adminId: string | null;
  author: string | null;
  createdAt: Date;
}

const columns = {
  id: tickets.id,
  userId: tickets.userId,
  email: tickets.email,
  subject: tickets.subject,
  note: tickets.note,
  image: tickets.image,
  status: tickets.status,
  createdAt: tickets.createdAt,
  closedAt: tickets.closedAt,
};

@Injectable()
export class TicketsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async insert(
    input: { userId: string | null; email: string; subject: string; note: string; image: string | null },
    executor: Executor = this.db,
  ): Promise<TicketRecord> {
    const [row] = await executor.insert(tickets).values(input).returning(columns);
    return row;
  }

  async findById(id: string, options: { lock?: boolean } = {}, executor: Executor = this.db): Promise<TicketRecord | undefined> {
    const query = executor.select(columns).from(tickets).where(eq(tickets.id, id));
    const [row] = options.lock ? await query.for('update') : await query;
    return row;
  }

  /** Newest first; `after` is the (created_at text, id) of the last row of the previous page. */
  list(
    filter: { status?: 'open' | 'closed'; after?: { createdAt: string; id: string }; limit: number },
    executor: Executor = this.db,
  ): Promise<TicketListRow[]> {
    const conditions: SQL[] = [];
    if (filter.status) conditions.push(eq(tickets.status, filter.status));
    if (filter.after) conditions.push(sql`(${tickets.createdAt}, ${tickets.id}) < (${filter.after.createdAt}::timestamptz, ${filter.after.id}::uuid)`);
    return executor
      .select({
        ...columns,
        createdAtKey: sql<string>`${tickets.createdAt}::text`,
        replies: sql<number>`(select count(*)::int from ${ticketReplies} where ${ticketReplies.ticketId} = ${tickets.id})`,
      })
      .from(tickets)
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(desc(tickets.createdAt), desc(tickets.id))
      .limit(filter.limit);
  }

  replies(ticketId: string, executor: Executor = this.db): Promise<TicketReplyRecord[]> {
    return executor
      .select({ id: ticketReplies.id, message: ticketReplies.message, adminId: ticketReplies.adminId, author: users.name, createdAt: ticketReplies.createdAt })
      .from(ticketReplies)
      .leftJoin(users, eq(users.id, ticketReplies.adminId))
      .where(eq(ticketReplies.ticketId, ticketId))
      .orderBy(asc(ticketReplies.createdAt), asc(ticketReplies.id));
  }

  async insertReply(input: { ticketId: string; adminId: string; message: string }, executor: Executor = this.db): Promise<{ id: string }> {
    const [row] = await executor.insert(ticketReplies).values(input).returning({ id: ticketReplies.id });
    return row;
  }

  async close(id: string, adminId: string, executor: Executor = this.db): Promise<void> {
    await executor.update(tickets).set({ status: 'closed', closedAt: new Date(), closedBy: adminId }).where(eq(tickets.id, id));
  }

  async userName(userId: string, executor: Executor = this.db): Promise<{ name: string; active: boolean } | undefined> {
    const [row] = await executor.select({ name: users.name, deactivatedAt: users.deactivatedAt }).from(users).where(eq(users.id, userId));
    return row ? { name: row.name, active: !row.deactivatedAt } : undefined;
  }
}
