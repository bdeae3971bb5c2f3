import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError, InvalidInputError } from '../../common/errors';
import { DATABASE, type Database, type Executor, type Tx } from '../../db/database';
import { inTransaction } from '../ledger/db-transaction';
import { type Money, toMoney, usdValue } from '../ledger/money';
import { PriceService } from '../market/price.service';
import type { TransactionRecord } from '../wallet/transactions.repository';
import { type WalletToken, WalletTokensRepository } from '../wallet/wallet-tokens.repository';
import { type CustomerRecord, WalletUsersRepository } from '../wallet/wallet-users.repository';
import { ApprovalGate } from './approval-gate.service';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the admin money commands share: their transaction, the customer they act on, the token named, a value now. */
@Injectable()
export class AdminMoneySupport {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly prices: PriceService,
    private readonly tokens: WalletTokensRepository,
    private readonly customers: WalletUsersRepository,
    private readonly gate: ApprovalGate,
  ) {}

  /** In the caller's transaction (a four-eyes approval being applied), or in a new one. */
  within<T>(outer: Tx | undefined, work: (tx: Tx) => Promise<T>): Promise<T> {
    return outer ? work(outer) : inTransaction(this.db, work);
  }

  /** USD value of a recorded quantity at the current price (the recorded value when no price is available). */
  async currentUsd(record: Pick<TransactionRecord, 'token' | 'coinAmount' | 'usdAmount'>, tx?: Executor): Promise<Money> {
    if (!this.gate.enabled) return toMoney(record.usdAmount);
    const quote = await this.prices.quote(record.token, tx).catch(() => undefined);
    return quote ? usdValue(toMoney(record.coinAmount), quote.price) : toMoney(record.usdAmount);
  }

  /** A supported token by id, name or symbol (case-insensitive; the id wins). */
  async resolveToken(input: string, what: 'token' | 'network', executor?: Tx): Promise<WalletToken> {
    const wanted = input.trim().toLowerCase();
    const supported = await this.tokens.listSupported(executor);
    const found =
      supported.find((t) => t.id === wanted) ??
      supported.find((t) => t.name.toLowerCase() === wanted) ??
      (supported.filter((t) => t.symbol.toLowerCase() === wanted).length === 1 ? supported.find((t) => t.symbol.toLowerCase() === wanted) : undefined);
    if (!found) {
      const names = supported.map((t) => t.id).join(', ');
      throw new InvalidInputError(
        what === 'network'
          ? `Unknown network "${input.slice(0, 60)}". Use a supported token: ${names}.`
          : `Unknown token "${input.slice(0, 60)}". Use a supported token: ${names}.`,
      );
    }
    return found;
  }

  async customerOr404(userId: string, executor?: Tx): Promise<CustomerRecord> {
    const user = UUID.test(userId) ? await this.customers.findActiveCustomer(userId, executor) : undefined;
    if (!user) throw new NotFoundError('User not found.');
    return user;
  }

  /**
   * Runs `work`, decided with the customer `known` from this instance's cache (no read first): when it refuses, a
   * customer gone meanwhile is answered first (404), as on the path that reads the customer before anything else.
   */
  async customerFirst<T>(userId: string, known: CustomerRecord | undefined, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (known) await this.customerOr404(userId);
      throw error;
    }
  }
}
