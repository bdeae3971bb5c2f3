import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { Gauge } from 'prom-client';
import { DATABASE, type Database, type Executor, type Tx } from '../../db/database';
import { rowsOf } from '../../db/rows';
import { AuditService } from '../audit/audit.service';
import { UsersRepository } from '../auth/users.repository';
import type { ConnectedChain } from '../chain/chain-connections';
import { MailService } from '../mail/mail.service';
import { MetricsService } from '../observability/metrics.service';
import { SignerClients } from '../signer-client/signer-clients';
import { type PayoutRecord, PayoutsRepository } from './payouts.repository';

/** The audit actions of an episode of a locked hot wallet (target: the network): found locked, then signing again. */
export const HOT_WALLET_LOCKED = 'chain.hot_wallet_locked';
export const HOT_WALLET_UNLOCKED = 'chain.hot_wallet_unlocked';

/**
 * A locked hot wallet (an encrypted node wallet nobody unlocked, or whose unlock timed out) is an operator's fault to
 * mend, not a reason to refuse customers: the payout stays approved with the reason for the admins (`payoutReason`)
 * and is tried again every run. The operator hears of it once per episode — an `ALERT` error line, an audit row
 * (`chain.hot_wallet_locked`), a mail to every active admin and the `payouts_hot_wallet_locked` metric — and once
 * more when the wallet signs again (`chain.hot_wallet_unlocked`). The audit trail holds the episode, decided under the
 * network's payout lock, so instances and restarts stay quiet while it lasts.
 */
@Injectable()
export class HotWalletLocks implements OnModuleInit {
  private readonly logger = new Logger('Payouts');

  constructor(
    private readonly payouts: PayoutsRepository,
    private readonly audit: AuditService,
    private readonly mail: MailService,
    private readonly users: UsersRepository,
    private readonly metrics: MetricsService,
    private readonly signers: SignerClients,
    @Inject(DATABASE) private readonly db: Database,
  ) {}

  onModuleInit(): void {
    const networks = this.signers.networks();
    if (!networks.length) return;
    const open = () => this.openEpisodes(this.db);
    new Gauge({
      name: 'payouts_hot_wallet_locked',
      help: 'Per network with a signer: 1 while its hot wallet is locked and its payouts wait (an operator must unlock it), else 0',
      labelNames: ['network'] as const,
      registers: [this.metrics.registry],
      async collect() {
        const locked = await open();
        for (const network of networks) this.set({ network }, locked.has(network) ? 1 : 0);
      },
    });
  }

  /** The payout waits for the wallet to be unlocked (approved, nothing refunded); the episode starts here once. In `tx`, under the network's payout lock. */
  async wait(chain: ConnectedChain, payout: PayoutRecord, reason: string, tx: Tx): Promise<void> {
    await this.payouts.update(payout, { state: 'approved', lastError: reason, attempted: true }, chain.nativeDecimals, tx);
    if ((await this.openEpisodes(tx, chain.network)).has(chain.network)) return;
    await this.audit.record(null, { action: HOT_WALLET_LOCKED, targetType: 'network', targetId: chain.network, after: { reason } }, tx);
    const text =
      `The hot wallet that pays ${chain.network} withdrawals is locked, so the signer signs nothing: ${reason}.\n\n` +
      "The approved withdrawals wait (nothing is refunded) and are paid by themselves once the node's administration RPC " +
      'user unlocks it (docs/operate/signer.md, "Encrypted hot wallet: who unlocks it").\n' +
      'This alert is sent once; you will hear again when it signs again.\n';
    for (const admin of await this.users.activeAdmins(tx)) {
      await this.mail.send({ to: admin.email, subject: `ALERT: the ${chain.network} hot wallet is locked`, text: `Hello ${admin.name},\n\n${text}` }, tx);
    }
    this.logger.error(`ALERT hot wallet locked: ${chain.network} payouts wait until an operator unlocks it (nothing refunded): ${reason}`);
  }

  /** A payout was signed on the network: an open episode closes. In `tx`, under the network's payout lock. */
  async signed(network: string, tx: Tx): Promise<void> {
    if (!(await this.openEpisodes(tx, network)).has(network)) return;
    await this.audit.record(null, { action: HOT_WALLET_UNLOCKED, targetType: 'network', targetId: network }, tx);
    this.logger.warn(`The ${network} hot wallet signs again: its waiting payouts are being paid`);
  }

  /** The networks whose last episode is open (found locked, not signing since). */
  private async openEpisodes(executor: Executor, network?: string): Promise<Set<string>> {
    const rows = rowsOf(
      await executor.execute(
        sql`select distinct on (target_id) target_id as network, action from audit_log
            where target_type = 'network' and action in (${HOT_WALLET_LOCKED}, ${HOT_WALLET_UNLOCKED})
              ${network ? sql`and target_id = ${network}` : sql``}
            order by target_id, id desc`,
      ),
    ) as Array<{ network: string; action: string }>;
    return new Set(rows.filter((row) => row.action === HOT_WALLET_LOCKED).map((row) => row.network));
  }
}
