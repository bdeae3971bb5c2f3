import { Injectable, Logger } from '@nestjs/common';
import type { Tx } from '../../db/database';
import { findNetwork } from '../../common/networks';
import { AuditService } from '../audit/audit.service';
import { LedgerService } from '../ledger/ledger.service';
import { PriceService } from '../market/price.service';
import { NotificationsService } from '../notifications/notifications.service';
import { describe as describeAmount } from '../wallet/wallet-common';
import type { ConnectedChain } from './chain-connections';
import { DROP_CHAIN_DEPOSIT } from './deposit-review-functions';
import { type DroppableDeposit, DepositReviewsRepository } from './deposit-reviews.repository';

/**
 * Deposits orphaned before credit that are never mined again: a reorganisation sends a deposit back to seen (the
 * watcher notes the height), and once the chain has moved CHAIN_<NETWORK>_DROP_AFTER_BLOCKS past it without the
 * payment in a block it is dropped — its History row rejected, the customer told (`cp_drop_chain_deposit` decides
 * under the deposit's row lock, so a replayed poll or a second instance drops nothing twice).
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
