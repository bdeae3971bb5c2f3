import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ReserveTokenDto } from '@coinpurse/contract';
import { DATABASE, type Database, type Tx } from '../../db/database';
import { JobLocks, xactLock } from '../../db/advisory-locks';
import { AuditService } from '../audit/audit.service';
import { inTransaction } from '../../db/in-transaction';
import { toMoney, plain } from '../ledger/money';
import { MailService } from '../mail/mail.service';
import { UsersRepository } from '../auth/users.repository';
import { RESERVES_RECOVERED, RESERVES_SHORTFALL, ReservesRepository } from './reserves.repository';

/** The advisory lock under which instances decide an episode's start or end (one at a time: raised once). */

/**
 * The reserves alert: when a token's complete holdings fall below its liabilities, an error line in the log, an audit
 * entry (`reserves.shortfall`) and a mail to every active admin — once per episode. The episode stays open (no new
 * alert at the next checks, on any instance, across restarts) until holdings are back at or above liabilities, which
 * closes it (`reserves.recovered`, logged, audited, mailed). The audit trail holds the episode's state.
 */
@Injectable()
export class ReservesAlertService {
  private readonly logger = new Logger('Reserves');

  constructor(
    private readonly repository: ReservesRepository,
    private readonly users: UsersRepository,
    private readonly audit: AuditService,
    private readonly mail: MailService,
    @Inject(DATABASE) private readonly db: Database,
  ) {}

  /** Opens or closes episodes after a check; tokens not read completely keep their state. */
  async review(tokens: ReserveTokenDto[], asOf: string): Promise<void> {
    const read = tokens.filter((t) => t.complete);
    const open = await this.repository.openShortfalls();
    // Most checks change nothing: no transaction, no lock.
    if (!read.some((t) => t.shortfall !== open.has(t.token))) return;
    const said: Array<() => void> = [];
    await inTransaction(this.db, async (tx) => {
      said.length = 0;
      await xactLock(tx, JobLocks.reservesAlert);
      // Again under the lock: another instance may have raised or closed the episode meanwhile.
      const stillOpen = await this.repository.openShortfalls(tx);
      const due = read.filter((t) => t.shortfall !== stillOpen.has(t.token));
      if (!due.length) return;
      const admins = await this.users.activeAdmins(tx);
      for (const token of due) said.push(await (token.shortfall ? this.raise(token, asOf, admins, tx) : this.close(token, asOf, admins, tx)));
    });
    for (const say of said) say();
  }

  private async raise(token: ReserveTokenDto, asOf: string, admins: Array<{ name: string; email: string }>, tx: Tx): Promise<() => void> {
    const symbol = token.symbol.toUpperCase();
    const short = plain(toMoney(token.liabilities).sub(token.holdings!));
    await this.audit.record(
      null,
      { action: RESERVES_SHORTFALL, targetType: 'reserves', targetId: token.token, after: { ...figures(token), shortfall: short, asOf } },
      tx,
    );
    const text =
      `The platform holds ${token.holdings} ${symbol} on chain but owes customers ${token.liabilities} ${symbol} ` +
      `(balances ${token.customerBalance}, pending withdrawals ${token.pendingWithdrawals}): short by ${short} ${symbol}.\n\n` +
      `${perNetwork(token, symbol)}\nChecked at ${asOf}. See Back office → Reserves. This alert is sent once; you will hear again when holdings are back above liabilities.\n`;
    for (const admin of admins)
      await this.mail.send({ to: admin.email, subject: `ALERT: ${symbol} reserves below customer liabilities`, text: `Hello ${admin.name},\n\n${text}` }, tx);
    return () =>
      this.logger.error(
        `ALERT reserves: ${token.token} holdings ${token.holdings} below liabilities ${token.liabilities} (short by ${short}); admins mailed, nothing moved`,
      );
  }

  private async close(token: ReserveTokenDto, asOf: string, admins: Array<{ name: string; email: string }>, tx: Tx): Promise<() => void> {
    const symbol = token.symbol.toUpperCase();
    await this.audit.record(null, { action: RESERVES_RECOVERED, targetType: 'reserves', targetId: token.token, after: { ...figures(token), asOf } }, tx);
    const text = `Holdings of ${symbol} are back at or above customer liabilities: ${token.holdings} held, ${token.liabilities} owed.\n\n${perNetwork(token, symbol)}\nChecked at ${asOf}.\n`;
    for (const admin of admins)
      await this.mail.send(
        { to: admin.email, subject: `Resolved: ${symbol} reserves cover customer liabilities`, text: `Hello ${admin.name},\n\n${text}` },
        tx,
      );
    return () => this.logger.warn(`Reserves: ${token.token} holdings ${token.holdings} cover liabilities ${token.liabilities} again`);
  }
}

function figures(token: ReserveTokenDto) {
  return {
    holdings: token.holdings,
    liabilities: token.liabilities,
    customerBalance: token.customerBalance,
    pendingWithdrawals: token.pendingWithdrawals,
    networks: token.networks.map((n) => ({ network: n.network, hot: n.hot, deposits: n.deposits, cold: n.cold, total: n.total })),
  };
}

function perNetwork(token: ReserveTokenDto, symbol: string): string {
  return token.networks
    .map((n) => `${n.name}: hot ${n.hot ?? '—'}, deposit addresses ${n.deposits ?? '—'}, cold ${n.cold ?? '—'}, total ${n.total ?? '—'} ${symbol}`)
    .join('\n');
}
