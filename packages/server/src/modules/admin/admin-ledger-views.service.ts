import { Injectable } from '@nestjs/common';
import type { AdminUserDto, LiabilitiesDto, UsersQueryDto } from '@coinpurse/contract';
import { countryName } from '../../common/countries';
import { InvalidInputError } from '../../common/errors';
import { LedgerService } from '../ledger/ledger.service';
import { toMoney, usdNumber, usdValue, plain } from '../ledger/money';
import { parseLimit } from '../wallet/wallet-common';
import { WalletTokensRepository } from '../wallet/wallet-tokens.repository';
import { WalletUsersRepository } from '../wallet/wallet-users.repository';
import { WalletService } from '../wallet/wallet.service';

/** The back office's money read views: customers with their balances, and what the platform owes per token. */
@Injectable()
export class AdminLedgerViewsService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly tokens: WalletTokensRepository,
    private readonly customers: WalletUsersRepository,
    private readonly wallet: WalletService,
  ) {}

  async listUsers(query: UsersQueryDto): Promise<{ items: AdminUserDto[]; nextCursor?: string }> {
    const limit = parseLimit(query.limit);
    let after: string | undefined;
    if (query.cursor !== undefined && query.cursor !== '') {
      after = Buffer.from(query.cursor, 'base64url').toString('utf8');
      if (!after || Buffer.from(after, 'utf8').toString('base64url') !== query.cursor) throw new InvalidInputError('The cursor is not valid.');
    }
    const rows = await this.customers.listActiveCustomers(limit + 1, after, undefined, query.search);
    const page = rows.slice(0, limit);
    const balances = await this.wallet.balancesOf(page.map((u) => u.id));
    return {
      items: page.map((u) => ({
        _id: u.id,
        name: u.name,
        email: u.email,
        country: countryName(u.country),
        balances: (balances.get(u.id) ?? []).map((b) => ({ token: b.name, balance: b.balance, tokenId: b.token, symbol: b.symbol, coinAmount: b.coinAmount })),
      })),
      nextCursor: rows.length > limit ? Buffer.from(page[page.length - 1].emailNormalized, 'utf8').toString('base64url') : undefined,
    };
  }

  async liabilities(): Promise<LiabilitiesDto> {
    const rows = await this.ledger.liabilities();
    const coins = await this.tokens.coinsByIds(rows.map((r) => r.token));
    let total = toMoney(0);
    const tokens = rows
      .map((row) => {
        const coin = coins.get(row.token);
        const sum = toMoney(row.customer).add(row.pending);
        const usd = coin ? usdValue(sum, coin.currentPrice) : toMoney(0);
        total = total.add(usd);
        return {
          token: row.token,
          symbol: coin?.symbol ?? row.token,
          name: coin?.name ?? row.token,
          customerBalance: plain(row.customer),
          pendingWithdrawals: plain(row.pending),
          total: plain(sum),
          price: coin ? plain(coin.currentPrice) : null,
          usdValue: usdNumber(usd),
          holders: Number(row.holders),
        };
      })
      .filter((t) => !toMoney(t.total).isZero() || t.holders > 0);
    return { totalUsd: usdNumber(total), tokens, asOf: new Date().toISOString() };
  }
}
