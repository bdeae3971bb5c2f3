import { Inject, Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import { DATABASE, type Database } from '../../db/database';
import { swapQuotes } from '../../db/schema';

export type SwapQuoteRecord = typeof swapQuotes.$inferSelect;

/** The swap quotes (drizzle/0050_fees.sql): written by cp_quote_swap, used once by cp_swap; read here for the answer. */
@Injectable()
export class SwapQuotesRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async find(id: string): Promise<SwapQuoteRecord | undefined> {
    const [row] = await this.db.select().from(swapQuotes).where(eq(swapQuotes.id, id)).limit(1);
    return row;
  }
}
