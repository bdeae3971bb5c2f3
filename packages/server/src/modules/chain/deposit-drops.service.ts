import { Injectable, Logger } from '@nestjs/common';
import type { Tx } from '../../db/database';
import { findNetwork } from '../../common/networks';
import { AuditService } from '../audit/audit.service';
import { LedgerService } from '../ledger/ledger.service';
import { PriceService } from '../market/price.service';
import { NotificationsService } from '../notifications/notifications.service';
import { describe as describeAmount } from '../wallet/wallet-common';
import type { ConnectedChain } from './chain-connections';
import { DROP_CHAIN_DEPOSIT, DROP_UNMINED_CHAIN_DEPOSIT } from './deposit-review-functions';
import { type DroppableDeposit, DepositReviewsRepository, type UnminedDeposit } from './deposit-reviews.repository';

/** What History says of a deposit replaced before it confirmed (its note; the client shows it). */
export const REPLACED_NOTE = 'Replaced before it confirmed; nothing was credited.';
export const notMinedNote = (blocks: number) =>
  `Not mined within ${blocks} blocks of being sent; nothing was credited. If it is mined later after all, it will be credited.`;

/**
 * Deposits dropped before they were credited, each by a money function under the deposit's row lock (a replayed poll
 * or a second instance drops nothing twice), its History row rejected and the customer told; nothing is ever credited
 * for a dropped deposit, and one mined after all is credited once (the watcher re-opens the row, see
 * drizzle/0061_dropped_deposits.sql):
 * - orphaned before credit and never mined again: a reorganisation sends a deposit back to seen (the watcher notes the
 *   height) and the chain moves CHAIN_<NETWORK>_DROP_AFTER_BLOCKS past it without the payment (`cp_drop_chain_deposit`);
 * - seen in the mempool and never mined (`cp_drop_unmined_chain_deposit`): replaced or conflicted (RBF, a double spend:
 *   the node no longer has it at all), or not mined within CHAIN_<NETWORK>_UNMINED_DROP_AFTER_BLOCKS of the height
 *   where it was first seen.
 */
@Injectable()
export class DepositDropsService {
  private readonly logger = new Logger('ChainWatcher');

  constructor(
    private readonly repository: DepositReviewsRepository,
    private readonly ledger: LedgerService,
    private readonly notifications: NotificationsService,
    private readonly audit: AuditService,
    private readonly prices: PriceService,
  ) {}

  /** Notes deposits just sent back to seen by a rewind to `forkHeight` (in the rewind's transaction). */
  noteOrphaned(depositIds: string[], forkHeight: number, tx: Tx): Promise<void> {
    return this.repository.noteOrphaned(depositIds, forkHeight, tx);
  }

  /** Drops the network's deposits whose time to be mined again ran out at the cursor `height`; returns how many. */
  async dropStale(chain: ConnectedChain, height: number): Promise<number> {
    let dropped = 0;
    for (const deposit of await this.repository.droppable(chain.network, height, chain.dropAfterBlocks)) {
      if (await this.drop(chain, deposit)) dropped++;
    }
    return dropped;
  }

  /**
   * Drops the network's deposits seen in the mempool and never mined: those the node no longer has (replaced,
   * conflicted) and those past the window at the cursor `height`; returns how many.
   */
  async dropUnmined(chain: ConnectedChain, height: number): Promise<number> {
    const waiting = await this.repository.unmined(chain.network);
    if (!waiting.length) return 0;
    const window = chain.unminedDropAfterBlocks;
    const late = waiting.filter((deposit) => deposit.seenAtHeight !== null && height - deposit.seenAtHeight >= window);
    const rest = waiting.filter((deposit) => !late.includes(deposit));
    const gone =
      rest.length && chain.node.goneTransactions
        ? await chain.node.goneTransactions(rest.map((deposit) => ({ txid: deposit.txid, index: deposit.outputIndex })))
        : new Set<string>();
    let dropped = 0;
    for (const deposit of rest) if (gone.has(deposit.txid) && (await this.dropUnminedOne(chain, deposit, 'replaced'))) dropped++;
    for (const deposit of late) if (await this.dropUnminedOne(chain, deposit, 'not_mined')) dropped++;
    return dropped;
  }

  private async dropUnminedOne(chain: ConnectedChain, deposit: UnminedDeposit, reason: 'replaced' | 'not_mined'): Promise<boolean> {
    const symbol = (await this.prices.quote(deposit.token).catch(() => undefined))?.symbol ?? deposit.token;
    const amountText = describeAmount(deposit.amount, deposit.token, symbol);
    const networkName = findNetwork(chain.network)?.shortName ?? chain.network;
    const blocks = chain.unminedDropAfterBlocks;
    const notice = this.notifications.notificationRecord({
      userId: deposit.userId,
      title: reason === 'replaced' ? 'Deposit replaced' : 'Deposit not confirmed',
      message:
        reason === 'replaced'
          ? `Your deposit of ${amountText} on ${networkName} was replaced before it confirmed, so nothing was credited for it. If the sender paid you again with the replacement, it shows as a deposit of its own. Transaction hash: ${deposit.txid}`
          : `Your deposit of ${amountText} on ${networkName} was not mined within ${blocks} blocks, so nothing was credited. If it is mined later after all, it will be credited. Transaction hash: ${deposit.txid}`,
      status: 'rejected',
      createdBy: null,
      transactionId: deposit.transactionId,
    });
    const audit = this.audit.row(null, {
      action: 'chain.deposit_drop',
      targetType: 'transaction',
      targetId: deposit.transactionId,
      after: { network: chain.network, txid: deposit.txid, depositId: deposit.id, amount: deposit.amount, token: deposit.token, reason },
    });
    const dropped = await this.ledger.run(
      DROP_UNMINED_CHAIN_DEPOSIT,
      () => [deposit.id, reason, blocks, reason === 'replaced' ? REPLACED_NOTE : notMinedNote(blocks), { notifications: [notice.row], audit: [audit] }],
      // The customer's wallet refetches (History shows the row rejected, the incoming deposit leaves the wallet).
      { changes: [{ userId: deposit.userId, token: deposit.token }] },
    );
    if (dropped !== true) return false;
    notice.announce();
    this.logger.warn(
      `${chain.network}: deposit ${deposit.txid} (${deposit.amount} ${deposit.token}) dropped: ${reason === 'replaced' ? 'the node no longer has it (replaced or conflicted)' : `not mined within ${blocks} blocks`}`,
    );
    return true;
  }

  private async drop(chain: ConnectedChain, deposit: DroppableDeposit): Promise<boolean> {
    const symbol = (await this.prices.quote(deposit.token).catch(() => undefined))?.symbol ?? deposit.token;
    const amountText = describeAmount(deposit.amount, deposit.token, symbol);
    const networkName = findNetwork(chain.network)?.shortName ?? chain.network;
    const blocks = chain.dropAfterBlocks;
    const notice = this.notifications.notificationRecord({
      userId: deposit.userId,
      title: 'Deposit rejected',
      message: `Your deposit of ${amountText} on ${networkName} was not credited: its block was dropped from the blockchain and the payment was not mined again within ${blocks} blocks. If the coins are still yours, send them again. Transaction hash: ${deposit.txid}`,
      status: 'rejected',
      createdBy: null,
      transactionId: deposit.transactionId,
    });
    const audit = this.audit.row(null, {
      action: 'chain.deposit_drop',
      targetType: 'transaction',
      targetId: deposit.transactionId,
      after: { network: chain.network, txid: deposit.txid, depositId: deposit.id, amount: deposit.amount, token: deposit.token, dropAfterBlocks: blocks },
    });
    const dropped = await this.ledger.run(
      DROP_CHAIN_DEPOSIT,
      () => [
        deposit.id,
        blocks,
        `Dropped: its block left the blockchain and the payment was not mined again within ${blocks} blocks. Not credited.`,
        { notifications: [notice.row], audit: [audit] },
      ],
      // The customer's wallet refetches (History shows the row rejected).
      { changes: [{ userId: deposit.userId, token: deposit.token }] },
    );
    if (dropped !== true) return false;
    notice.announce();
    this.logger.warn(
      `${chain.network}: deposit ${deposit.txid} (${deposit.amount} ${deposit.token}) dropped: not mined again within ${blocks} blocks of its reorganisation`,
    );
    return true;
  }
}
