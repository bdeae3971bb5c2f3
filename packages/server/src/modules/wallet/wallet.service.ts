import { Injectable } from '@nestjs/common';
import type { SQL } from 'drizzle-orm';
import type { TokenBalanceDto, TransactionDto, TransactionQueryDto, UserBalanceDto } from '@coinpurse/contract';
import { NotFoundError } from '../../common/errors';
import { LedgerService } from '../ledger/ledger.service';
import { toMoney, usdNumber } from '../ledger/money';
import { TransactionsRepository } from './transactions.repository';
import { csvDocument, csvText } from '../../common/csv';
import { parseLimit, parseSeqCursor, TRANSACTION_CSV_HEADER, tokenBalance, toTransactionDto, transactionCsvCells } from './wallet-common';
import { WalletTokensRepository } from './wallet-tokens.repository';

/** What a customer holds and did: balances in USD, the history and its CSV export. */
@Injectable()
export class WalletService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly tokens: WalletTokensRepository,
    private readonly transactions: TransactionsRepository,
  ) {}

  /** Every supported token (zero included) plus any other token still held, in USD at current prices. */
  async balance(userId: string): Promise<UserBalanceDto> {
    const balances = await this.balancesOf([userId]);
    const list = balances.get(userId) ?? [];
    const total = list.reduce((sum, b) => sum.add(toMoney(b.coinAmountExact).mul(b.price)), toMoney(0));
    return { totalBalance: usdNumber(total), balances: list.sort((a, b) => b.balance - a.balance) };
  }

  /** Balances per user (for the customer and the admin user list). */
  async balancesOf(userIds: string[]): Promise<Map<string, TokenBalanceDto[]>> {
    const [supported, held] = await Promise.all([this.tokens.listSupported(), this.ledger.customerBalances(userIds)]);
    const extraIds = [...new Set(held.filter((h) => !toMoney(h.balance).isZero() && !supported.some((s) => s.id === h.token)).map((h) => h.token))];
    const extra = await this.tokens.coinsByIds(extraIds);
    const out = new Map<string, TokenBalanceDto[]>();
    for (const userId of userIds) {
      const mine = new Map(held.filter((h) => h.userId === userId).map((h) => [h.token, h.balance]));
      const list = supported.map((token) => tokenBalance(token, mine.get(token.id) ?? '0'));
      for (const [tokenId, quantity] of mine) {
        if (supported.some((s) => s.id === tokenId) || toMoney(quantity).isZero()) continue;
        const coin = extra.get(tokenId) ?? { id: tokenId, symbol: tokenId, name: tokenId, currentPrice: '0' };
        list.push(tokenBalance(coin, quantity));
      }
      out.set(userId, list);
    }
    return out;
  }

  async history(
    userId: string | undefined,
    query: TransactionQueryDto & { userId?: string; search?: string },
    where?: SQL,
  ): Promise<{ items: TransactionDto[]; nextCursor?: string }> {
    const limit = parseLimit(query.limit);
    const beforeSeq = parseSeqCursor(query.cursor);
    if (query.userId !== undefined && !/^[0-9a-f-]{36}$/i.test(query.userId)) throw new NotFoundError('User not found.');
    const rows = await this.transactions.list({
      userId: userId ?? query.userId,
      id: query.id,
      token: query.token,
      type: query.type,
      status: query.status,
      // Search is the admins' (the customer's own history has no `search`).
      search: userId ? undefined : query.search,
      where,
      beforeSeq,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    // No customer id: the admins' list of every customer's transactions.
    const audience = userId === undefined ? 'admin' : 'customer';
    return { items: page.map((row) => toTransactionDto(row, audience)), nextCursor: rows.length > limit ? String(page[page.length - 1].seq) : undefined };
  }

  /** The customer's whole visible history as CSV, oldest first, with the USD value at the time. */
  async exportCsv(userId: string): Promise<string> {
    const header = ['Date', ...TRANSACTION_CSV_HEADER, 'Received token', 'Received amount', 'Note', 'Transaction id', 'Coin amount (exact)'];
    const transactions = this.transactions;
    async function* batches() {
      let afterSeq: number | undefined;
      for (;;) {
        const rows = await transactions.list({ userId, ascending: true, afterSeq, limit: 500 });
        if (rows.length) yield rows;
        if (rows.length < 500) return;
        afterSeq = rows[rows.length - 1].seq;
      }
    }
    return csvText(
      csvDocument(header, batches(), (row) => {
        const dto = toTransactionDto(row);
        return [
          dto.createdAt,
          ...transactionCsvCells(row, dto.coinAmount),
          dto.swap?.toToken ?? '',
          dto.swap?.toCoinAmount ?? '',
          dto.note ?? '',
          dto._id,
          dto.coinAmountExact,
        ];
      }),
    );
  }
}
