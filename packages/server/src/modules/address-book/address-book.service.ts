import { Inject, Injectable } from '@nestjs/common';
import type {
  AddAddressDto,
  AddressBookDto,
  AddressBookEntryDto,
  AddressMutationResponseDto,
  AllowlistResponseDto,
  SetAllowlistDto,
} from '@coinpurse/contract';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from '../../common/errors';
import { networkName } from '../../common/networks';
import type { Actor, Principal } from '../../common/principal';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { MailService } from '../mail/mail.service';
import { StepUpService } from '../security/step-up.service';
import { CoinsRepository } from '../market/coins.repository';
import { SanctionsService } from '../compliance/sanctions.service';
import { chooseTransferNetwork } from '../networks/network-choice';
import { TokenNetworksRepository } from '../networks/token-networks.repository';
import { NotificationsService } from '../notifications/notifications.service';
import { MONEY_CODES } from '../ledger/money-errors';
import { type AddressBookRecord, AddressBookRepository } from './address-book.repository';
import { UUID_TEXT } from '../../common/page-cursor';

/**
 * The withdrawal address book and allowlist mode. Saving an address validates it like a send; while the allowlist is
 * on, sends go only to saved addresses whose hold (`ADDRESS_HOLD_HOURS`) has passed. Saving an address and turning
 * the allowlist off are security events: each notifies the customer (same transaction) and mails them.
 * Both are step-up actions: with two-factor sign-in on, they need a fresh one-time `code`.
 */
@Injectable()
export class AddressBookService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: AddressBookRepository,
    private readonly networks: TokenNetworksRepository,
    private readonly coins: CoinsRepository,
    private readonly notifications: NotificationsService,
    private readonly audit: AuditService,
    private readonly mail: MailService,
    private readonly stepUp: StepUpService,
    private readonly sanctions: SanctionsService,
  ) {}

  async list(userId: string): Promise<AddressBookDto> {
    const [rows, allowlistEnabled] = await Promise.all([this.repository.list(userId), this.repository.allowlistEnabled(userId)]);
    return {
      allowlistEnabled,
      holdHours: this.config.addressHoldHours,
      travelRuleThresholdUsd: Number(this.config.compliance.travelRuleThresholdUsd),
      addresses: rows.map(toDto),
    };
  }

  async add(principal: Principal, requestId: string | undefined, body: AddAddressDto): Promise<AddressMutationResponseDto> {
    await this.stepUp.verify(principal, body.code);
    const rows = await this.networks.listForCoin(body.token);
    const coin = rows.length ? await this.coins.findById(body.token) : undefined;
    if (!coin) throw new InvalidInputError(`"${body.token.slice(0, 60)}" is not a supported token.`);
    const target = chooseTransferNetwork(
      coin,
      rows.map((r) => r.network),
      { address: body.address, network: body.network, memo: body.memo },
    );
    // Sanctions screening: a listed address is refused (neutrally) and the attempt flagged for the operator.
    await this.sanctions.refuseIfListed({ userId: principal.id, kind: 'address-book', network: target.network.id, address: body.address, token: coin.id });
    const createdAt = new Date();
    const usableAt = new Date(createdAt.getTime() + this.config.addressHoldHours * 3_600_000);
    const saved = await this.db.transaction(async (tx) => {
      const row = await this.repository.insertIfAbsent(
        {
          userId: principal.id,
          label: body.label,
          token: coin.id,
          network: target.network.id,
          address: body.address,
          memo: target.memo ?? null,
          createdAt,
          usableAt,
        },
        tx,
      );
      if (!row) throw new ConflictError('This address is already in your address book.');
      const where = `${body.address}${row.memo ? ` (${target.network.memo!.label.toLowerCase()} ${row.memo})` : ''}`;
      await this.notifications.notify(
        {
          userId: principal.id,
          title: 'Withdrawal address added',
          message: `"${row.label}" was added to your address book: ${coin.symbol.toUpperCase()} on ${target.network.name}, ${where}. If this was not you, contact support now.`,
        },
        tx,
      );
      await this.audit.record(actor(principal, requestId), { action: 'address_book.add', targetType: 'address_book', targetId: row.id, after: toDto(row) }, tx);
      await this.mailCustomer(
        principal,
        'A withdrawal address was added to your Coinpurse account',
        `Hello ${principal.name},\n\n"${row.label}" was added to your address book:\n${coin.name} (${coin.symbol.toUpperCase()}) on ${target.network.name}\n${row.address}${row.memo ? `\n${target.network.memo!.label}: ${row.memo}` : ''}\n\n` +
          `${this.config.addressHoldHours > 0 ? `While the allowlist is on, it can be used from ${row.usableAt.toUTCString()}.\n\n` : ''}If this was not you, contact support now: ${this.config.publicUrl}/ticket\n`,

        tx,
      );
      return row;
    });
    return { ok: true, message: 'Address saved', address: toDto(saved) };
  }

  async remove(principal: Principal, requestId: string | undefined, id: string): Promise<AddressMutationResponseDto> {
    if (!UUID_TEXT.test(id)) throw new NotFoundError('Address not found.');
    await this.db.transaction(async (tx) => {
      const row = await this.repository.delete(principal.id, id, tx);
      if (!row) throw new NotFoundError('Address not found.');
      await this.audit.record(
        actor(principal, requestId),
        { action: 'address_book.delete', targetType: 'address_book', targetId: row.id, before: toDto(row) },
        tx,
      );
    });
    return { ok: true, message: 'Address deleted' };
  }

  async setAllowlist(principal: Principal, requestId: string | undefined, body: SetAllowlistDto): Promise<AllowlistResponseDto> {
    // Turning the allowlist off is a step-up action; turning it on only adds protection.
    if (!body.enabled) await this.stepUp.verify(principal, body.code);
    await this.db.transaction(async (tx) => {
      const previous = await this.repository.setAllowlist(principal.id, body.enabled, tx);
      if (previous === body.enabled) return previous;
      await this.audit.record(
        actor(principal, requestId),
        {
          action: 'address_book.allowlist',
          targetType: 'user',
          targetId: principal.id,
          before: { allowlistEnabled: previous },
          after: { allowlistEnabled: body.enabled },
        },
        tx,
      );
      if (!body.enabled) {
        await this.notifications.notify(
          {
            userId: principal.id,
            title: 'Address allowlist turned off',
            message: 'Withdrawals from your account can now go to any address. If this was not you, contact support now.',
          },
          tx,
        );
        await this.mailCustomer(
          principal,
          'The withdrawal allowlist was turned off on your Coinpurse account',
          `Hello ${principal.name},\n\nThe address allowlist of your account was turned off: withdrawals can now go to any address.\n\nIf this was not you, contact support now: ${this.config.publicUrl}/ticket\n`,
          tx,
        );
      }
    });
    return { ok: true, message: body.enabled ? 'Allowlist turned on' : 'Allowlist turned off', allowlistEnabled: body.enabled };
  }

  /**
   * The error of a send refused by the allowlist rule (`cp_require_send_allowed`, drizzle/0013_wallet_functions.sql):
   * not in the address book, or saved too recently (undefined: not one of its refusals).
   */
  sendRefusal(code: string, detail: string, network: string): Error | undefined {
    if (code === MONEY_CODES.notInAddressBook) return notInAddressBook(network);
    if (code === MONEY_CODES.addressOnHold) {
      const held = JSON.parse(detail) as { label: string; usableAtMs: number };
      return onHold(held.label, new Date(Number(held.usableAtMs)));
    }
    return undefined;
  }

  /** Queued in the change's own transaction (the mail outbox): the change and its mail commit together. */
  private async mailCustomer(principal: Principal, subject: string, text: string, tx: Executor): Promise<void> {
    await this.mail.send({ to: principal.email, subject, text }, tx);
  }
}

function notInAddressBook(network: string): ForbiddenError {
  return new ForbiddenError(
    `Your address allowlist is on: sends go only to addresses saved in your address book. Save this ${networkName(network)} address first, or turn the allowlist off.`,
  );
}

function onHold(label: string, usableAt: Date): ForbiddenError {
  return new ForbiddenError(`"${label}" was saved recently: for your safety it can be used from ${usableAt.toUTCString()}.`);
}

function actor(principal: Principal, requestId: string | undefined): Actor {
  return { id: principal.id, role: principal.role, requestId };
}

function toDto(row: AddressBookRecord): AddressBookEntryDto {
  return {
    _id: row.id,
    label: row.label,
    token: row.token,
    network: row.network,
    networkName: networkName(row.network) ?? row.network,
    address: row.address,
    memo: row.memo,
    createdAt: row.createdAt.toISOString(),
    usableFrom: row.usableAt.toISOString(),
  };
}
