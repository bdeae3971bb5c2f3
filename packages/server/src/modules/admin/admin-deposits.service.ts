import { Inject, Injectable } from '@nestjs/common';
import type { DepositDto, PendingApprovalDto, TransactionDto } from '@coinpurse/contract';
import { randomUUID } from 'node:crypto';
import { InvalidInputError, NotFoundError } from '../../common/errors';
import { findNetwork, NATIVE_NETWORK, NETWORKS } from '../../common/networks';
import type { Actor } from '../../common/principal';
import { DATABASE, type Database, type Tx } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { inTransaction } from '../../db/in-transaction';
import { boundCustomerAmount } from '../ledger/four-eyes-policy';
import { type IdempotencyContext, IdempotencyService } from '../ledger/idempotency';
import { customer, LEASED_SHARD, LedgerService, platform, transfer } from '../ledger/ledger.service';
import { type Money, parseAmount, plain, toMoney, usdToQuantity, usdValue } from '../ledger/money';
import { MONEY_CODES, type MoneyRefusal } from '../ledger/money-errors';
import { PriceService } from '../market/price.service';
import { TokenNetworksRepository } from '../networks/token-networks.repository';
import { NotificationsService } from '../notifications/notifications.service';
import { describe, toTransactionDto, usdText } from '../wallet/wallet-common';
import { type WalletToken, WalletTokensRepository } from '../wallet/wallet-tokens.repository';
import { AdminMoneySupport } from './admin-money-support';
import { type Applying, requireBoundLines } from '../approvals/applying';
import { DEPOSIT, type DepositOutcome } from './admin-transaction-functions';
import { ApprovalGate } from '../approvals/approval-gate.service';
import { UUID_TEXT } from '../../common/page-cursor';

/** Where a deposit arrives: the token, its network and the platform's deposit address there. */
interface DepositTarget {
  token: WalletToken;
  network: string;
  address: string | null;
}

/**
 * A stored answer names the customer as `cp_deposit` reads them: the response is built with this stand-in, which the
 * function replaces (see drizzle/0014_admin_transaction_functions.sql).
 */
const CUSTOMER_STAND_IN = { userName: '', userEmail: '' };

/** Deposits an admin records for a customer (pending, approved or rejected; approved credits the customer). */
@Injectable()
export class AdminDepositsService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly ledger: LedgerService,
    private readonly prices: PriceService,
    private readonly tokens: WalletTokensRepository,
    private readonly tokenNetworks: TokenNetworksRepository,
    private readonly notifications: NotificationsService,
    private readonly audit: AuditService,
    private readonly idempotency: IdempotencyService,
    private readonly gate: ApprovalGate,
    private readonly support: AdminMoneySupport,
  ) {}

  /**
   * What a deposit's `network` names: a supported token (id, name or symbol → its first network), or a network id
   * (→ the token on it: the network's native coin when supported, else the only token there). Anything else → 400
   * with the choices.
   */
  async resolveDepositTarget(input: string, executor?: Tx): Promise<DepositTarget> {
    const wanted = input.trim().toLowerCase();
    const [supported, rows] = await Promise.all([this.tokens.listSupported(executor), this.tokenNetworks.listLive({}, executor)]);
    const token = supported.find((t) => t.id === wanted) ?? supported.find((t) => t.name.toLowerCase() === wanted);
    const bySymbol = supported.filter((t) => t.symbol.toLowerCase() === wanted);
    const chosen = token ?? (bySymbol.length === 1 ? bySymbol[0] : undefined);
    if (chosen) {
      const first = rows.find((r) => r.coinId === chosen.id);
      return { token: chosen, network: first?.network ?? wanted, address: first?.address ?? chosen.address };
    }
    const network = findNetwork(wanted);
    const names = `${supported.map((t) => t.id).join(', ')}`;
    if (!network) {
      throw new InvalidInputError(
        `Unknown network "${input.slice(0, 60)}". Use a supported token (${names}) or a network id (${NETWORKS.map((n) => n.id).join(', ')}).`,
      );
    }
    const onNetwork = rows.filter((r) => r.network === network.id);
    const native = onNetwork.find((r) => NATIVE_NETWORK[r.coinId] === network.id);
    const row = native ?? (onNetwork.length === 1 ? onNetwork[0] : undefined);
    const rowToken = row && supported.find((t) => t.id === row.coinId);
    if (!row || !rowToken) {
      throw new InvalidInputError(
        onNetwork.length
          ? `Several tokens are on ${network.name} (${onNetwork.map((r) => r.coinId).join(', ')}): use the token id.`
          : `No supported token is on ${network.name}. Use a supported token: ${names}.`,
      );
    }
    return { token: rowToken, network: row.network, address: row.address };
  }

  /**
   * Records a deposit: one call of `cp_deposit` (the customer active, the key claimed, the token live, the credit when
   * approved, the rows). An approved one goes through the four-eyes gate first while it decides; an approval being
   * applied credits exactly the quantity it bound, at the request's price.
   */
  async deposit(actor: Actor, userId: string, input: DepositDto, idem?: IdempotencyContext, applying?: Applying): Promise<TransactionDto | PendingApprovalDto> {
    if (!UUID_TEXT.test(userId)) throw new NotFoundError('User not found.');
    const usd = parseAmount(input.amount);
    const target = await this.resolveDepositTarget(input.network, applying?.tx).catch(async (error: unknown) => {
      // The customer's 404 comes before an unknown network's 400.
      await this.support.customerOr404(userId, applying?.tx);
      throw error;
    });
    if (applying) {
      const bound = applying.effect;
      const price = bound?.price ? toMoney(bound.price) : (await this.prices.quote(target.token.id, applying.tx)).price;
      const boundQuantity = bound && boundCustomerAmount(bound);
      const quantity = boundQuantity ? toMoney(boundQuantity) : this.quantityOf(usd, price, target.token);
      requireBoundLines(applying, this.legs(userId, target.token, input.status, quantity));
      return this.record(actor, userId, target, input.status, quantity, price, { tx: applying.tx });
    }
    if (input.status === 'approved' && this.gate.decides(actor)) return this.gated(actor, userId, target, input, usd, idem);
    const { price } = await this.prices.quote(target.token.id);
    return this.record(actor, userId, target, input.status, this.quantityOf(usd, price, target.token), price, { idem });
  }

  /** A deposit the four-eyes gate decides, under its locks: held (202), or recorded in the same transaction. */
  private gated(actor: Actor, userId: string, target: DepositTarget, input: DepositDto, usd: Money, idem?: IdempotencyContext) {
    return inTransaction(this.db, async (tx): Promise<TransactionDto | PendingApprovalDto> => {
      // First in the transaction: a duplicate waits here, and a crash rolls the claim back with the effect.
      await this.idempotency.claim(idem, tx);
      const user = await this.support.customerOr404(userId, tx);
      const { token } = target;
      const { price } = await this.prices.quote(token.id, tx);
      const quantity = this.quantityOf(usd, price, token);
      const legs = this.legs(user.id, token, input.status, quantity);
      const held = await this.gate.holdIfGated(
        actor,
        legs,
        {
          action: 'deposit',
          userId: user.id,
          transactionId: null,
          payload: { ...input },
          basis: { price: plain(price) },
          usd,
          summary: `Approved deposit of ${describe(plain(quantity), token.id, token.symbol)} (${usdText(plain(usd))}) for ${user.email}`,
        },
        tx,
        idem,
      );
      if (held) return held;
      const body = await this.record(actor, user.id, target, input.status, quantity, price, { tx });
      await this.idempotency.complete(idem, idem?.status ?? 201, body, tx);
      return body;
    });
  }

  private quantityOf(usd: Money, price: Money, token: WalletToken): Money {
    const quantity = usdToQuantity(usd, price, token.id);
    if (quantity.isZero()) throw new InvalidInputError(`The amount is below the smallest ${token.symbol.toUpperCase()} unit.`);
    return quantity;
  }

  /** The movement of a deposit in `status` (what the gate and an approval's bound lines see): approved credits the customer. */
  private legs(userId: string, token: WalletToken, status: DepositDto['status'], quantity: Money) {
    return status === 'approved' ? transfer(platform('deposits', token.id, LEASED_SHARD), customer(userId, token.id), quantity) : [];
  }

  /**
   * One call of `cp_deposit`: in `tx` (the gate's or an approval's transaction; the key is then claimed by the caller),
   * else on its own with the key — a concurrent duplicate that took it first is replayed.
   */
  private async record(
    actor: Actor,
    userId: string,
    { token, network, address }: DepositTarget,
    status: DepositDto['status'],
    quantity: Money,
    price: Money,
    via: { tx: Tx } | { idem?: IdempotencyContext },
  ): Promise<TransactionDto> {
    const id = randomUUID();
    const at = new Date();
    const usdAt = usdValue(quantity, price);
    const symbol = token.symbol.toUpperCase();
    const dto = (customerSeen: { userName: string; userEmail: string }) =>
      toTransactionDto({
        id,
        userId,
        type: 'deposit',
        token: token.id,
        network,
        address,
        coinAmount: plain(quantity),
        usdAmount: plain(usdAt),
        price: plain(price),
        status,
        direction: 'in',
        note: null,
        details: null,
        createdAt: at,
        voidedAt: null,
        symbol: token.symbol,
        ...customerSeen,
      });
    const notice = this.notifications.notificationRecord({
      userId,
      title: `Deposit ${status}`,
      message: `A deposit of ${describe(plain(quantity), token.id, symbol)} (${usdText(plain(usdAt))}) was recorded with status ${status}.`,
      status,
      createdBy: actor.id,
      transactionId: id,
    });
    const audit = this.audit.row(actor, {
      action: 'transaction.deposit',
      targetType: 'transaction',
      targetId: id,
      after: { userId, token: token.id, coinAmount: plain(quantity), usd: plain(usdAt), status },
    });
    const idem = 'idem' in via ? via.idem : undefined;
    const args = (shard: number) => [
      id,
      userId,
      token.id,
      network,
      address,
      plain(quantity),
      plain(usdAt),
      plain(price),
      status,
      at,
      actor.id,
      shard,
      this.idempotency.keyFor(idem, idem?.status ?? 201, dto(CUSTOMER_STAND_IN)),
      { notifications: [notice.row], audit: [audit] },
    ];
    const changes = status === 'approved' ? [{ userId, token: token.id }] : [];
    const refuse = (refusal: MoneyRefusal) => depositRefusal(refusal, symbol);
    let outcome: DepositOutcome;
    if ('tx' in via) {
      outcome = (await this.ledger.runIn(via.tx, DEPOSIT, args, { changes, refuse })) as DepositOutcome;
      await notice.publish(via.tx);
    } else {
      outcome = await this.idempotency.runClaiming(
        idem,
        async () =>
          (await this.ledger.run(DEPOSIT, args, {
            changes,
            announce: [notice.announce],
            refuse,
            beforeCommit: this.idempotency.pauseAfterClaim(idem),
          })) as DepositOutcome,
      );
      // The exact bytes stored with the key are the answer (a replay is byte-identical).
      if (idem && outcome.answer !== null) idem.storedBody = outcome.answer;
    }
    return dto(outcome);
  }
}

/** The domain error of a refusal `cp_deposit` raised (undefined: rethrown as is). */
function depositRefusal({ code }: MoneyRefusal, symbol: string): Error | undefined {
  switch (code) {
    case MONEY_CODES.customerGone:
      return new NotFoundError('User not found.');
    case MONEY_CODES.tokenGone:
      return new InvalidInputError(`${symbol} is no longer a supported token: it was removed meanwhile. Reload and try again.`);
    default:
      return undefined;
  }
}
