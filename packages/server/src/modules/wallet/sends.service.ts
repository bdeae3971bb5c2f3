import { Inject, Injectable, Optional } from '@nestjs/common';
import type { SendCryptoDto, SendCryptoResponseDto } from '@coinpurse/contract';
import { randomUUID } from 'node:crypto';
import { InvalidInputError } from '../../common/errors';
import { actorOf, type Principal } from '../../common/principal';
import { AddressBookService } from '../address-book/address-book.service';
import { AuditService } from '../audit/audit.service';
import { type IdempotencyContext, IdempotencyService } from '../ledger/idempotency';
import { LedgerService } from '../ledger/ledger.service';
import { parseAmount, plain, toMoney, usdToQuantity, usdValue } from '../ledger/money';
import { PriceService } from '../market/price.service';
import { chooseTransferNetwork } from '../networks/network-choice';
import { TokenNetworksRepository } from '../networks/token-networks.repository';
import { NotificationsService } from '../notifications/notifications.service';
import { SecurityMailService } from '../security/security-mail.service';
import { StepUpService } from '../security/step-up.service';
import { SanctionsService } from '../compliance/sanctions.service';
import { travelRuleOf } from '../compliance/travel-rule';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import type { TransactionRecord } from './transactions.repository';
import { describe, toTransactionDto, usdText } from './wallet-common';
import { SendFeeCheck, withdrawalFeeRefusal } from './send-fee-check';
import { SEND } from './wallet-functions';
import { atCurrentPrice, feeRefusalOf, refusalOf } from './wallet-money';
import { PRICE_CHANGE_GRACE_MS, WalletTokensRepository } from './wallet-tokens.repository';

export const SEND_SUCCESS = 'Sent and Pending Check Status in History';

/** A customer's send: a withdrawal request, its quantity held until it is paid (`cp_send`). */
@Injectable()
export class SendsService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly prices: PriceService,
    private readonly tokens: WalletTokensRepository,
    private readonly notifications: NotificationsService,
    private readonly audit: AuditService,
    private readonly idempotency: IdempotencyService,
    private readonly tokenNetworks: TokenNetworksRepository,
    private readonly addressBook: AddressBookService,
    private readonly stepUp: StepUpService,
    private readonly securityMails: SecurityMailService,
    private readonly sanctions: SanctionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() private readonly feeCheck?: SendFeeCheck,
  ) {}

  async send(
    principal: Principal,
    requestId: string | undefined,
    tokenId: string,
    input: SendCryptoDto,
    idem?: IdempotencyContext,
  ): Promise<SendCryptoResponseDto> {
    // Executed only at the price it was quoted at: when it moved meanwhile (a stale cache), quoted again once.
    return atCurrentPrice(() => this.sendOnce(principal, requestId, tokenId, input, idem));
  }

  private async sendOnce(
    principal: Principal,
    requestId: string | undefined,
    tokenId: string,
    input: SendCryptoDto,
    idem?: IdempotencyContext,
  ): Promise<SendCryptoResponseDto> {
    const actor = actorOf(principal, requestId);
    const token = await this.tokens.findSupported(tokenId);
    if (!token) throw new InvalidInputError(`"${tokenId.slice(0, 60)}" is not a supported token.`);
    const { address } = input.transferData;
    // The network: the token's only one, the one asked for, or the one network whose format takes the address.
    const networks = await this.tokenNetworks.listForCoin(token.id);
    const target = chooseTransferNetwork(
      token,
      networks.map((n) => n.network),
      input.transferData,
    );
    const network = target.network.id;
    const memo = target.memo ?? null;
    const usd = parseAmount(input.transferData.amount);
    const symbol = token.symbol.toUpperCase();
    // The travel rule: at or above the threshold, who the send goes to (kept with the withdrawal).
    const travelRule = travelRuleOf(input.travelRule, usd, this.config.compliance.travelRuleThresholdUsd);
    // Sanctions screening: a listed address is refused (neutrally) and the attempt flagged for the operator.
    await this.sanctions.refuseIfListed({ userId: principal.id, kind: 'send', network, address, token: token.id });

    // The price at the time of the request; the movement itself is exact whatever the price does meanwhile.
    const quote = await this.prices.quote(token.id);
    // The exact quantity when asked for (Max: the balance to its last unit, so nothing stays stuck), else the USD amount
    // at the quoted price rounded down to the token's display decimals.
    const exact = input.transferData.coinAmountExact;
    const quantity = exact !== undefined ? parseAmount(exact) : usdToQuantity(usd, quote.price, token.id);
    if (quantity.isZero()) throw new InvalidInputError(`The amount is below the smallest ${symbol} unit that can be sent.`);
    // The schedule's withdrawal fee on this network comes out of the amount (cp_send checks it and its mode are still
    // the schedule's); the rest is held and paid out. In the fixed mode the platform pays the network fee.
    const terms = await this.tokens.withdrawalTerms(token.id, network);
    const fee = toMoney(terms.fee);
    if (fee.gte(quantity)) throw new InvalidInputError(withdrawalFeeRefusal(plain(fee), symbol));
    const held = quantity.sub(fee);
    // Otherwise the customer pays a payout's network fee out of the amount: one the quoted fee takes entirely is refused
    // here, before anything is held (the money function knows no fee quote; the signer checks again when it signs).
    const feeRefusal = terms.mode === 'fixed' ? undefined : await this.feeCheck?.sendRefusal(token.id, network, plain(held));
    if (feeRefusal) throw new InvalidInputError(feeRefusal);
    const usdAt = usdValue(quantity, quote.price);
    const id = randomUUID();
    const at = new Date();
    const details = {
      priceSource: quote.source,
      ...(memo ? { memo } : {}),
      ...(fee.gt(0) ? { withdrawalFee: plain(fee) } : {}),
      ...(terms.mode === 'fixed' ? { withdrawalFeeMode: 'fixed' } : {}),
      ...(travelRule ? { travelRule } : {}),
    };
    const row: Omit<TransactionRecord, 'seq'> = {
      id,
      userId: principal.id,
      type: 'withdrawal',
      token: token.id,
      network,
      address,
      coinAmount: plain(held),
      usdAmount: plain(usdAt),
      price: plain(quote.price),
      status: 'pending',
      direction: 'out',
      note: null,
      details,
      createdAt: at,
      voidedAt: null,
    };
    const body: SendCryptoResponseDto = {
      message: SEND_SUCCESS,
      transaction: toTransactionDto({ ...row, userName: principal.name, userEmail: principal.email, symbol: token.symbol }),
    };
    const notice = this.notifications.notificationRecord({
      userId: principal.id,
      title: 'Withdrawal pending',
      message:
        `Your withdrawal of ${describe(plain(quantity), token.id, symbol)} (${usdText(plain(usdAt))}) to ${address} on ${target.network.name} is pending.` +
        (fee.gt(0) ? ` A withdrawal fee of ${describe(plain(fee), token.id, symbol)} was taken from it.` : ''),
      status: 'pending',
      transactionId: id,
    });
    const mail = this.securityMails.withdrawalRequestedRecord(principal, {
      amount: `${describe(plain(quantity), token.id, symbol)} (${usdText(plain(usdAt))})`,
      address,
      network: target.network.name,
    });
    const audit = this.audit.row(actor, {
      action: 'wallet.send',
      targetType: 'transaction',
      targetId: id,
      after: {
        token: token.id,
        coinAmount: plain(held),
        usd: plain(usdAt),
        network,
        address,
        memo,
        price: plain(quote.price),
        ...(fee.gt(0) ? { withdrawalFee: plain(fee) } : {}),
        ...(terms.mode === 'fixed' ? { withdrawalFeeMode: 'fixed' } : {}),
        ...(travelRule ? { travelRule } : {}),
      },
    });
    // A withdrawal is a step-up action: a code given is checked now; without one the function refuses when two-factor
    // sign-in is on.
    const codeChecked = await this.stepUp.verifyGiven(principal, input.code);
    await this.idempotency.runClaiming(idem, () =>
      this.ledger.run(
        SEND,
        (shard) => [
          id,
          principal.id,
          token.id,
          network,
          address,
          memo,
          plain(quantity),
          plain(usdAt),
          plain(quote.price),
          details,
          at,
          codeChecked,
          PRICE_CHANGE_GRACE_MS,
          shard,
          this.idempotency.keyFor(idem, idem?.status ?? 201, body),
          { notifications: [notice.row], audit: [audit], mail: [mail.row] },
          plain(fee),
        ],
        {
          changes: [{ userId: principal.id, token: token.id }],
          announce: [notice.announce, mail.announce],
          refuse: ({ code, detail }) =>
            this.stepUp.refusalOf(code) ??
            this.addressBook.sendRefusal(code, detail, network) ??
            this.feeRefusal(code, detail, token) ??
            refusalOf(code, detail, [token], symbol),
          beforeCommit: this.idempotency.pauseAfterClaim(idem),
        },
      ),
    );
    return body;
  }

  private feeRefusal(code: string, detail: string, token: { id: string; symbol: string; name: string }): Error | undefined {
    if (code === 'CPF01') this.tokens.forgetFees();
    return feeRefusalOf(code, detail, [token], 'send');
  }

  /**
   * Runs a money call that claims `idem`: when a concurrent duplicate took the key first, its stored answer is replayed
   * (or a different request refused) by the interceptor; when that claim rolled back meanwhile, the call runs again.
   */
}
