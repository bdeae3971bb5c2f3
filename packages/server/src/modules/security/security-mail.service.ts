import { Injectable, Logger } from '@nestjs/common';
import type { Executor } from '../../db/database';
import { MailService, type OutgoingMail } from '../mail/mail.service';
import { NotificationsService } from '../notifications/notifications.service';

/** Who gets a security mail. */
export interface SecurityRecipient {
  id: string;
  name: string;
  email: string;
  role: 'user' | 'admin';
}

export const SECURITY_SUBJECTS = {
  newSignIn: 'New sign-in to your Coinpurse account',
  passwordChanged: 'Your Coinpurse password was changed',
  twoFactorEnabled: 'Two-factor sign-in is on',
  twoFactorDisabled: 'Two-factor sign-in was turned off',
  recoveryCodeUsed: 'A recovery code was used on your Coinpurse account',
  withdrawalRequested: 'Withdrawal requested from your Coinpurse account',
  addressAdded: 'A withdrawal address was added to your Coinpurse account',
  emailChanged: 'The sign-in email of your Coinpurse account was changed',
  passwordKnown: 'Someone knows your Coinpurse password',
  apiKeyCreated: 'An API key that can withdraw was created on your Coinpurse account',
} as const;

const NOT_YOU = 'If this was not you, change your password now and contact support.';

/**
 * Security mails (and, for customers, the matching notification), written to the mail outbox. Pass the change's
 * transaction where there is one, so the mail commits with it. No secret, code or token ever goes into a mail.
 */
@Injectable()
export class SecurityMailService {
  private readonly logger = new Logger('SecurityMail');

  constructor(
    private readonly mail: MailService,
    private readonly notifications: NotificationsService,
  ) {}

  newSignIn(user: SecurityRecipient, where: { ip: string | null; userAgent: string | null }, tx?: Executor): Promise<void> {
    const device = `${where.userAgent ? shorten(where.userAgent, 120) : 'an unknown browser'} from ${where.ip ?? 'an unknown address'}`;
    return this.deliver(user, SECURITY_SUBJECTS.newSignIn, `Your account was signed in to from a new device or address: ${device}, at ${stamp()}.`, { tx });
  }

  passwordChanged(user: SecurityRecipient, tx?: Executor): Promise<void> {
    return this.deliver(
      user,
      SECURITY_SUBJECTS.passwordChanged,
      `The password of your account was changed at ${stamp()}. Your other sessions were signed out.`,
      { tx },
    );
  }

  twoFactorEnabled(user: SecurityRecipient, tx?: Executor): Promise<void> {
    return this.deliver(
      user,
      SECURITY_SUBJECTS.twoFactorEnabled,
      `Two-factor sign-in was turned on for your account at ${stamp()}. Keep your recovery codes somewhere safe.`,
      { tx },
    );
  }

  twoFactorDisabled(user: SecurityRecipient, tx?: Executor): Promise<void> {
    return this.deliver(
      user,
      SECURITY_SUBJECTS.twoFactorDisabled,
      `Two-factor sign-in was turned off for your account at ${stamp()}. Your other sessions were signed out.`,
      { tx },
    );
  }

  recoveryCodeUsed(user: SecurityRecipient, codesLeft: number, tx?: Executor): Promise<void> {
    return this.deliver(
      user,
      SECURITY_SUBJECTS.recoveryCodeUsed,
      `A recovery code was used on your account at ${stamp()}. ${codesLeft} unused ${codesLeft === 1 ? 'code is' : 'codes are'} left.`,
      { tx },
    );
  }

  /** A right password with a wrong second-factor code: the password is known to someone else. */
  passwordKnown(user: SecurityRecipient): Promise<void> {
    return this.deliver(user, SECURITY_SUBJECTS.passwordKnown, `Someone signed in with your password but not your code; change your password. (${stamp()})`);
  }

  /** The amount as the customer reads it (e.g. "0.01 BTC ($650.00)"); the network once the send path carries it. */
  withdrawalRequested(user: SecurityRecipient, withdrawal: { amount: string; address: string; network?: string | null }): Promise<void> {
    return this.deliver(user, SECURITY_SUBJECTS.withdrawalRequested, withdrawalEvent(withdrawal), { notify: false });
  }

  /**
   * The `withdrawalRequested` mail as statements to run in the withdrawal's own one-statement posting (the outbox row
   * commits with the withdrawal; its delivery stays after the commit).
   */

  /** The withdrawal-requested mail as a row for the send's money function (see MailService.outboxRecord). */
  withdrawalRequestedRecord(user: SecurityRecipient, withdrawal: { amount: string; address: string; network?: string | null }) {
    return this.mail.outboxRecord(mailOf(user, SECURITY_SUBJECTS.withdrawalRequested, withdrawalEvent(withdrawal)));
  }

  /** A key with the `withdraw` scope: software holding it can send money (to saved addresses) without the owner. */
  apiKeyCreated(user: SecurityRecipient, key: { name: string; prefix: string; scopes: string[] }, tx: Executor): Promise<void> {
    const event = `An API key named "${key.name}" (${key.prefix}…, scopes: ${key.scopes.join(', ')}) was created on your account at ${stamp()}. Software holding it can send from your account to the addresses saved in your address book. Revoke it in Profile → API keys if you do not know it.`;
    return this.deliver(user, SECURITY_SUBJECTS.apiKeyCreated, event, { tx });
  }

  /** Goes to the OLD address (the one an attacker who changed it cannot read), and to the new one. */
  async emailChanged(user: SecurityRecipient, previousEmail: string, tx?: Executor): Promise<void> {
    const event = `The sign-in email of your account was changed from ${previousEmail} to ${user.email} at ${stamp()}.`;
    await this.deliver({ ...user, email: previousEmail }, SECURITY_SUBJECTS.emailChanged, event, { tx });
    await this.deliver(user, SECURITY_SUBJECTS.emailChanged, event, { notify: false, tx });
  }

  /**
   * With `tx` (the change's own transaction) the notification and the outbox row commit with the change, or not at all:
   * a crash in between cannot lose the mail. Without it they are written at once; a failure is logged, never thrown.
   */
  private async deliver(user: SecurityRecipient, subject: string, event: string, options: { notify?: boolean; tx?: Executor } = {}): Promise<void> {
    const write = async () => {
      if (user.role === 'user' && options.notify !== false) {
        await this.notifications.notify({ userId: user.id, title: subject, message: `${event} ${NOT_YOU}` }, options.tx);
      }
      await this.mail.send(mailOf(user, subject, event), options.tx);
    };
    if (options.tx) return write();
    try {
      await write();
    } catch (error) {
      this.logger.error(`Could not send the security mail "${subject}": ${(error as Error).message}`);
    }
  }
}

function mailOf(user: SecurityRecipient, subject: string, event: string): OutgoingMail {
  return { to: user.email, subject, text: `Hello ${user.name},\n\n${event}\n\n${NOT_YOU}\n\nCoinpurse security\n` };
}

function withdrawalEvent(withdrawal: { amount: string; address: string; network?: string | null }): string {
  const network = withdrawal.network ? ` on ${withdrawal.network}` : '';
  // The full address is what the customer must check; it is not a secret.
  return `A withdrawal of ${withdrawal.amount}${network} to ${withdrawal.address} was requested at ${stamp()}.`;
}

function stamp(): string {
  return `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
