import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DATABASE, type Database, type Tx } from '../../db/database';
import { JobLocks } from '../../db/advisory-locks';
import { inTransaction } from '../../db/in-transaction';
import { plain, tokenDecimals, toMoney, usdValue } from '../ledger/money';
import { PriceService } from '../market/price.service';
import { LiveEventsService } from '../notifications/live-events.service';
import { baseToDecimal } from '../../chain-core/amounts';
import { belowLedgerMinimum } from './ledger-minimum';
import { ChainConnections, type ConnectedChain } from './chain-connections';
import { PerNetworkJob } from '../../jobs/per-network-job';

import { type ChainDepositRecord, ChainDepositsRepository, type CursorRecord, type DepositToRecord, type FoundDeposit } from './chain-deposits.repository';
import { DepositAddressesRepository } from './deposit-addresses.repository';
import { DepositDropsService } from './deposit-drops.service';
import { DepositCreditsService } from './deposit-credits.service';
import { DepositHoldsRepository } from './deposit-holds.repository';
import { DepositScreeningService } from './deposit-screening.service';
import type { ChainBlock } from '../../chain-core/utxo-node';
import { TokenNetworksRepository } from '../networks/token-networks.repository';

/** An ERC-20 token watched on an EVM network: the ledger token (coin id) its Transfer logs credit, and its decimals. */
interface TokenContract {
  coinId: string;
  decimals: number;
}

/** Blocks kept per network to find a fork point: a reorg deeper than this rewinds to the oldest kept block. */
const KEPT_BLOCKS = 288;
/** Blocks read per poll at most (catching up continues at the next poll, at once). */
const BLOCKS_PER_POLL = 200;

export interface PollResult {
  network: string;
  nodeHeight: number;
  height: number;
  blocksRead: number;
  rewoundTo?: number;
  /** Another instance holds the network's watcher lock (or moved the cursor meanwhile): this poll stopped. */
  yielded?: boolean;
}

/**
 * One watcher per connected network. Each poll asks the node for its tip, checks that the block the cursor names is
 * still in the best chain (else rewinds to the fork point), reads each new block (`getblock <hash> 2`), records the
 * payments to deposit addresses keyed by (network, txid, output), and moves the cursor — the block's writes and the
 * cursor move in one transaction under the network's advisory lock, and only from the cursor it read, so a second
 * instance, a restart or a replayed block never records or credits twice. Deposits then count confirmations and are
 * credited through the ledger in the same transaction as their state change. A node that is down or answers garbage is
 * retried with back-off; the cursor never moves past a block that was not read. Errors never carry the RPC URL's
 * credentials (ChainRpcError names the node without them).
 */
@Injectable()
export class ChainWatcherService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ChainWatcher');
  /** The polls: one at a time per network, never throwing; a failure is stored for the status screen. */
  private readonly job: PerNetworkJob;
  /** Mempool transactions already read, per network (cleared past 100,000). */
  private readonly mempoolKnown = new Map<string, Set<string>>();
  /** Decimals read from contracts whose row has none stored (added while the network had no node). */
  private readonly decimalsRead = new Map<string, number>();

  constructor(
    private readonly chains: ChainConnections,
    private readonly deposits: ChainDepositsRepository,
    private readonly addresses: DepositAddressesRepository,
    private readonly live: LiveEventsService,
    private readonly prices: PriceService,
    private readonly networks: TokenNetworksRepository,
    @Inject(DATABASE) private readonly db: Database,
    private readonly drops: DepositDropsService,
    private readonly credits: DepositCreditsService,
    private readonly holds: DepositHoldsRepository,
    private readonly screening: DepositScreeningService,
  ) {
    this.job = new PerNetworkJob({
      name: 'watcher',
      logger: this.logger,
      db,
      lockBase: JobLocks.chainWatchBase,
      onFailure: (network, message) => this.deposits.noteNode(network, { error: message }),
    });
  }

  onApplicationBootstrap(): void {
    for (const chain of this.chains.list()) {
      this.logger.log(
        `Watching ${chain.network} (${chain.chain}) at ${chain.rpcUrlForLogs}: ${chain.confirmations} confirmations, every ${chain.pollSeconds} s`,
      );
      this.job.start(chain.network, chain.pollSeconds * 1000, () => this.poll(chain.network));
    }
  }

  onModuleDestroy(): Promise<void> {
    return this.job.close();
  }

  /** Stops the scheduled polls (tests drive `pollOnce` themselves; shutdown). */
  stop(): void {
    this.job.stop();
  }

  /** Consecutive failed polls of a network (0: the last one went through). */
  failuresOf(network: string): number {
    return this.job.failuresOf(network);
  }

  /** A poll that never throws: a failure is logged (without credentials), stored for the status screen and counted. */
  async pollSafely(network: string): Promise<boolean> {
    return (await this.job.safely(network, () => this.poll(network))) !== undefined;
  }

  /** One poll of a network: rewind on a reorg, read new blocks, count confirmations and credit. Throws on node errors. */
  pollOnce(network: string): Promise<PollResult> {
    return this.job.once(network, () => this.poll(network));
  }

  private async poll(network: string): Promise<PollResult> {
    const chain = this.chains.get(network);
    if (!chain) throw new Error(`${network} is not connected to a node`);
    const node = chain.node;
    const tip = await node.tipHeight();
    let cursor = await this.deposits.cursor(network);
    if (!cursor) {
      // First start: from the node's tip (payments before the network was connected are not scanned).
      const block = await node.block(await node.blockHash(tip));
      await this.deposits.initCursor(network, block);
      cursor = (await this.deposits.cursor(network))!;
    }
    const result: PollResult = { network, nodeHeight: tip, height: cursor.height, blocksRead: 0 };
    // Every poll checks that the cursor's block is still in the best chain (the node may have reorganised, even to a
    // shorter chain).
    if (tip < cursor.height || (await node.blockHash(cursor.height)) !== cursor.blockHash) {
      const rewound = await this.rewind(chain, cursor, tip);
      if (!rewound) return { ...result, yielded: true };
      cursor = rewound;
      result.rewoundTo = cursor.height;
    }
    let nodeBlockAt: Date | undefined;
    const contracts = chain.family === 'evm' ? await this.tokenContracts(chain) : new Map<string, TokenContract>();
    while (cursor.height < tip && result.blocksRead < BLOCKS_PER_POLL) {
      const block = await node.block(await node.blockHash(cursor.height + 1), [...contracts.keys()]);
      if (block.height !== cursor.height + 1) throw new Error(`${network}: the node answered block ${block.height} for height ${cursor.height + 1}`);
      if (block.parentHash !== cursor.blockHash) {
        // The chain changed between our reads: rewind to the fork and read forward again.
        const rewound = await this.rewind(chain, cursor, tip);
        if (!rewound) return { ...result, yielded: true };
        cursor = rewound;
        result.rewoundTo = cursor.height;
        continue;
      }
      if (!(await this.applyBlock(chain, cursor, block, contracts))) return { ...result, height: cursor.height, yielded: true };
      cursor = { network, height: block.height, blockHash: block.hash };
      nodeBlockAt = block.time;
      result.blocksRead++;
    }
    result.height = cursor.height;
    await this.scanMempool(chain, cursor.height);
    await this.deposits.noteNode(network, { nodeHeight: tip, nodeBlockAt, error: null });
    await this.advanceConfirmations(chain, cursor);
    await this.drops.dropStale(chain, cursor.height);
    await this.drops.dropUnmined(chain, cursor.height);
    // Deposits held above the limit, released once it allows them (a raised level, or the day rolled on).
    await this.credits.releaseDue(network);
    return result;
  }

  /**
   * Records the block's payments to deposit addresses and moves the cursor onto it, in one transaction under the
   * network's advisory lock — only when the cursor is still the one this poll read (false: another instance moved it
   * or holds the lock).
   */
  private async applyBlock(chain: ConnectedChain, from: CursorRecord, block: ChainBlock, contracts: Map<string, TokenContract>): Promise<boolean> {
    const keys = [...new Set(block.outputs.map((o) => o.matchKey))];
    const owners = new Map((await this.addresses.ownersOf(chain.network, keys)).map((row) => [row.matchKey, row]));
    // The platform's own gas top-ups to deposit addresses (sweeps) are not deposits.
    const own = await this.addresses.ownPayments(chain.network, [...new Set(block.outputs.filter((o) => owners.has(o.matchKey)).map((o) => o.txid))]);
    const paid = block.outputs.filter((o) => owners.has(o.matchKey) && !own.has(o.txid) && (!o.contract || contracts.has(o.contract)));
    const native = await this.nativeToken(chain);
    // Each payment's token and decimals: the network's own coin, or the token whose contract emitted the Transfer.
    const tokenOf = (output: ChainBlock['outputs'][number]) =>
      output.contract ? contracts.get(output.contract)! : { coinId: native, decimals: chain.nativeDecimals };
    const quotes = new Map<string, { price: string; symbol: string }>();
    for (const coinId of new Set(paid.map((o) => tokenOf(o).coinId))) {
      const quote = await this.prices.quote(coinId).catch(() => undefined);
      if (quote) quotes.set(coinId, { price: quote.price.toString(), symbol: quote.symbol });
    }
    // Sanctions screening of the payments' senders (the node is asked before the block's transaction).
    const sanctioned = await this.screening.screen(chain, block.hash, paid);
    const touchedUsers = new Set<string>();
    const applied = await this.job.locked(chain.network, async (tx) => {
      const cursor = await this.deposits.cursorForUpdate(chain.network, tx);
      if (!cursor || cursor.height !== from.height || cursor.blockHash !== from.blockHash) return false;
      // Every payment of the block and their History rows in one statement (thousands of customers may be paid in one block).
      const found = paid.map((output) => {
        const token = tokenOf(output);
        return this.foundDeposit(chain, owners.get(output.matchKey)!, output, token, 'confirming', quotes.get(token.coinId));
      });
      const results = await this.deposits.record(found, block, tx);
      for (const { record } of results) touchedUsers.add(record.userId);
      await this.screening.flag(
        chain,
        results.map(({ record }) => record),
        sanctioned,
        tx,
      );
      await this.deposits.insertBlock(chain.network, block, tx);
      await this.deposits.pruneBlocks(chain.network, block.height - KEPT_BLOCKS, tx);
      await this.deposits.moveCursor(chain.network, block.height, block.hash, tx);
      // The customers' wallets refetch (history shows the deposit, its confirmations count up).
      await this.publishBalances([...touchedUsers], native, tx);
      return true;
    });
    return applied ?? false;
  }

  /**
   * A `balance` event to each customer (their wallets refetch), sent on commit. In chunks: one block may pay thousands
   * of customers, and one statement selects at most 1,664 values (found by the block-of-2,000 bench).
   */
  private async publishBalances(userIds: string[], token: string, tx: Tx): Promise<void> {
    for (let i = 0; i < userIds.length; i += 500) {
      await this.live.publishMany(
        userIds.slice(i, i + 500).map((userId) => ({ userId, event: { type: 'balance' as const, data: { token } } })),
        tx,
      );
    }
  }

  /**
   * A payment to a customer's address as the row it is recorded as, with its History row (below the token's minimum:
   * never credited).
   */
  private foundDeposit(
    chain: ConnectedChain,
    owner: { userId: string; address: string },
    output: ChainBlock['outputs'][number],
    token: TokenContract,
    state: 'seen' | 'confirming',
    quote: { price: string; symbol: string } | undefined,
  ): DepositToRecord {
    const amount = baseToDecimal(output.amountBase, token.decimals);
    const belowMinimum = belowLedgerMinimum(output.amountBase, token.decimals, token.coinId);
    const found: FoundDeposit = {
      network: chain.network,
      txid: output.txid,
      outputIndex: output.index,
      userId: owner.userId,
      token: token.coinId,
      address: owner.address,
      amountBase: output.amountBase.toString(),
      amount,
      requiredConfirmations: chain.confirmations,
      state: belowMinimum ? 'below_minimum' : state,
    };
    const id = randomUUID();
    return { ...found, id, history: this.transactionRow(chain, { ...found, id, confirmations: state === 'confirming' ? 1 : 0 }, quote) };
  }

  /**
   * Payments to customers waiting in the node's mempool (UTXO nodes; EVM nodes' pending block): recorded as seen, with
   * their History row, before their first block, with the cursor `height` they were first seen at (the not-mined window
   * counts from it). Each transaction is read once per process.
   */
  private async scanMempool(chain: ConnectedChain, height: number): Promise<void> {
    if (!chain.node.mempoolOutputs) return;
    let known = this.mempoolKnown.get(chain.network);
    if (!known || known.size > 100_000) this.mempoolKnown.set(chain.network, (known = new Set()));
    const outputs = await chain.node.mempoolOutputs(known);
    if (!outputs.length) return;
    const owners = new Map((await this.addresses.ownersOf(chain.network, [...new Set(outputs.map((o) => o.matchKey))])).map((row) => [row.matchKey, row]));
    const paid = outputs.filter((o) => owners.has(o.matchKey));
    if (!paid.length) return;
    const native = await this.nativeToken(chain);
    const quote = await this.prices.quote(native).catch(() => undefined);
    const quoted = quote ? { price: quote.price.toString(), symbol: quote.symbol } : undefined;
    await inTransaction(this.db, async (tx) => {
      const found = paid.map((output) => ({
        ...this.foundDeposit(chain, owners.get(output.matchKey)!, output, { coinId: native, decimals: chain.nativeDecimals }, 'seen', quoted),
        seenAtHeight: height,
      }));
      const inserted = await this.deposits.record(found, undefined, tx);
      await this.publishBalances([...new Set(inserted.map(({ record }) => record.userId))], native, tx);
    });
  }

  /** The History row of a new deposit: pending with its confirmations; rejected (never credited) below the minimum. */
  private transactionRow(
    chain: ConnectedChain,
    deposit: FoundDeposit & { id: string; confirmations: number },
    quote: { price: string; symbol: string } | undefined,
  ) {
    const belowMinimum = deposit.state === 'below_minimum';
    const symbol = (quote?.symbol ?? deposit.token).toUpperCase();
    return {
      id: randomUUID(),
      userId: deposit.userId,
      type: 'deposit' as const,
      token: deposit.token,
      network: chain.network,
      address: deposit.address,
      coinAmount: deposit.amount,
      usdAmount: quote ? plain(usdValue(deposit.amount, quote.price)) : '0',
      price: quote?.price ?? null,
      status: belowMinimum ? ('rejected' as const) : ('pending' as const),
      direction: 'in' as const,
      note: belowMinimum ? `Below the minimum deposit of ${plain(toMoney(10).pow(-tokenDecimals(deposit.token)))} ${symbol}: recorded, not credited.` : null,
      details: {
        txHash: deposit.txid,
        outputIndex: deposit.outputIndex,
        confirmations: deposit.confirmations,
        requiredConfirmations: deposit.requiredConfirmations,
        chainDepositId: deposit.id,
      },
      createdBy: null,
    };
  }

  /**
   * The ERC-20 tokens watched on an EVM network: live tokens whose row there has a contract, with the contract's
   * decimals (read from the node when the token was added before the network was connected, then kept).
   */
  private async tokenContracts(chain: ConnectedChain): Promise<Map<string, TokenContract>> {
    const out = new Map<string, TokenContract>();
    for (const row of await this.networks.listLive()) {
      if (row.network !== chain.network || !row.contractAddress) continue;
      const contract = row.contractAddress.toLowerCase();
      let decimals = row.contractDecimals ?? this.decimalsRead.get(`${chain.network}:${contract}`);
      if (decimals === undefined || decimals === null) {
        decimals = await this.chains.tokenDecimals(chain.network, row.contractAddress);
        this.decimalsRead.set(`${chain.network}:${contract}`, decimals);
      }
      if (decimals <= 18) out.set(contract, { coinId: row.coinId, decimals });
    }
    return out;
  }

  /** The ledger token a native payment on the network credits: the live token of its native coin (else the first). */
  private async nativeToken(chain: ConnectedChain): Promise<string> {
    if (chain.nativeCoins.length === 1) return chain.nativeCoins[0];
    const quotes = await this.prices.quoteMany(chain.nativeCoins);
    return chain.nativeCoins.find((coin) => quotes.has(coin)) ?? chain.nativeCoins[0];
  }

  /**
   * Finds the fork point — the highest kept block whose hash the node still has at that height — and moves the cursor
   * back to it in one transaction: deposits in the orphaned blocks go back to seen (not credited yet: their History row
   * shows 0 confirmations) or, when already credited, are flagged for admin review with an alert (never debited
   * silently). Returns the new cursor, or undefined when another instance moved the cursor meanwhile.
   */
  private async rewind(chain: ConnectedChain, from: CursorRecord, tip: number): Promise<CursorRecord | undefined> {
    const network = chain.network;
    let height = Math.min(from.height, tip);
    let fork: CursorRecord | undefined;
    for (; height >= 0; height--) {
      const kept = await this.deposits.blockAt(network, height);
      if (!kept) break;
      if ((await chain.node.blockHash(height)) === kept.hash) {
        fork = { network, height, blockHash: kept.hash };
        break;
      }
    }
    let restartBlock: ChainBlock | undefined;
    if (!fork) {
      // Deeper than the kept blocks: start again below the oldest kept block, on the node's chain.
      const oldest = await this.deposits.oldestBlock(network);
      const restart = Math.max(0, Math.min(tip, (oldest?.height ?? from.height) - 1));
      restartBlock = await chain.node.block(await chain.node.blockHash(restart));
      fork = { network, height: restart, blockHash: restartBlock.hash };
    }
    const alerts: ChainDepositRecord[] = [];
    const done = await this.job.locked(network, async (tx) => {
      const cursor = await this.deposits.cursorForUpdate(network, tx);
      if (!cursor || cursor.height !== from.height || cursor.blockHash !== from.blockHash) return false;
      const orphaned = await this.deposits.inBlocksAbove(network, fork!.height, tx);
      const users = new Set<string>();
      const backToSeen: string[] = [];
      for (const deposit of orphaned) {
        users.add(deposit.userId);
        if (deposit.state === 'credited') {
          await this.deposits.update(deposit.id, { review: 'orphaned_after_credit', blockHeight: null, blockHash: null }, tx);
          alerts.push(deposit);
        } else if (deposit.state === 'confirming' || deposit.state === 'held') {
          // A held deposit was not credited either: seen again, its hold decided anew once confirmed.
          await this.deposits.update(deposit.id, { state: 'seen', confirmations: 0, blockHeight: null, blockHash: null }, tx);
          if (deposit.transactionId) await this.deposits.setTransactionConfirmations([deposit.transactionId], 0, tx);
          if (deposit.transactionId && deposit.state === 'held') await this.holds.unhold([deposit.transactionId], tx);
          backToSeen.push(deposit.id);
        } else {
          await this.deposits.update(deposit.id, { blockHeight: null, blockHash: null }, tx);
        }
      }
      // Dropped if not mined again within CHAIN_<NETWORK>_DROP_AFTER_BLOCKS of the fork (DepositDropsService).
      await this.drops.noteOrphaned(backToSeen, fork!.height, tx);
      await this.deposits.dropBlocksAbove(network, fork!.height, tx);
      if (restartBlock) await this.deposits.insertBlock(network, restartBlock, tx);
      await this.deposits.moveCursor(network, fork!.height, fork!.blockHash, tx);
      await this.publishBalances([...users], chain.nativeCoins[0], tx);
      return true;
    });
    if (!done) return undefined;
    this.logger.warn(`${network}: reorganisation, rewound from block ${from.height} to ${fork.height}`);
    for (const deposit of alerts) {
      // The alert: operators watch for this line and the status screen's review count.
      this.logger.error(
        `${network}: ALERT credited deposit ${deposit.txid}:${deposit.outputIndex} (${deposit.amount} ${deposit.token}) was orphaned by a reorganisation; flagged for admin review, nothing debited`,
      );
    }
    return fork;
  }

  /**
   * Counts the confirmations of the network's confirming deposits (one set-based update, however many) and credits
   * those that reached N, each in its own transaction.
   */
  private async advanceConfirmations(chain: ConnectedChain, cursor: CursorRecord): Promise<void> {
    const open = await this.deposits.confirming(chain.network);
    const due = open.filter((deposit) => cursor.height - deposit.blockHeight! + 1 >= chain.confirmations);
    if (open.length > due.length) {
      await inTransaction(this.db, async (tx) => {
        const users = await this.deposits.refreshConfirmations(chain.network, cursor.height, chain.confirmations, tx);
        await this.publishBalances(users, chain.nativeCoins[0], tx);
      });
    }
    // Each credited (or held) exactly once: see DepositCreditsService.
    for (const deposit of due) await this.credits.credit(chain, deposit.id);
  }
}
