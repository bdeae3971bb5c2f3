import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DATABASE, type Database, type Tx } from '../../db/database';
import { JobLocks, tryXactLock } from '../../db/advisory-locks';
import { CHAIN_NETWORKS, type ChainNetwork } from '../../config/chain-params';
import { ChainConnections, type ConnectedChain } from '../chain/chain-connections';
import { ChainRpcError } from '../chain/json-rpc';
import { InvalidInputError } from '../../common/errors';
import type { NetworkFeeDto } from '@coinpurse/contract';
import { inTransaction } from '../ledger/db-transaction';
import { LedgerService } from '../ledger/ledger.service';
import { NotificationsService } from '../notifications/notifications.service';
import { AuditService } from '../audit/audit.service';
import { MailService } from '../mail/mail.service';
import { explorerUrl, findNetwork } from '../../common/networks';
import { describe as describeAmount } from '../wallet/wallet-common';
import { baseToCoins, HotWalletShort, NodeWalletSigner, type PayoutSigner, SignerRefusal } from './node-wallet-signer';
import { EvmKeySigner } from './evm-key-signer';
import { coinsToBase } from '../chain/utxo-node';
import { payoutDetails, type PayoutRecord, PayoutsRepository } from './payouts.repository';
import { FAIL_PAYOUT } from '../chain/chain-functions';
import { PerNetworkJob } from '../chain/per-network-job';
import { Erc20Payouts } from './erc20-payouts';
import { ColdPayoutsService } from './cold-payouts.service';

/** Advisory lock keys of the payout jobs: one per network (base + the network's place in CHAIN_NETWORKS). */
export const PAYOUT_LOCK_BASE = JobLocks.chainWatchBase + 100;

const RPC_VERIFY_REJECTED = -26;
const RPC_VERIFY_ERROR = -25;

/** Confirmation target of the fee estimate shown before a send. */
const FEE_TARGET_BLOCKS = 6;
/** A P2WPKH payout: one input, the payment and change (vbytes). */
const TYPICAL_PAYOUT_VBYTES = 141n;

export interface PayoutRunResult {
  network: string;
  created: number;
  signed: number;
  broadcast: number;
  completed: number;
  /** Another instance holds the network's payout lock: this run did nothing. */
  yielded?: boolean;
}

export interface PayoutRunOptions {
  /** Stop right after the signed payouts are stored (tests: a process that dies before it broadcasts). */
  stopAfterSigning?: boolean;
}

/**
 * Pays approved withdrawals on the networks with a signer (`CHAIN_<NETWORK>_WALLET`), one job per network on one
 * instance at a time (a transaction-scoped advisory lock per step, payout rows locked too). Each payout moves
 * approved → signed (bytes and txid stored, committed) → broadcast (`sendrawtransaction` of the stored bytes) →
 * confirming n of N → completed. A retry, a restart or a second instance only ever rebroadcasts the stored bytes: a
 * withdrawal has one payout row (unique), and a row is signed once, under its lock, from the approved state only.
 * Failures are kept on the row (`last_error`) with a state that says what happens next: awaiting_funds (the hot wallet
 * is short: retried), failed (the signer refused: for an admin), signed with an error (the node rejected or was down:
 * rebroadcast). Runs never throw.
 */
@Injectable()
export class PayoutsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Payouts');
  private readonly signers = new Map<string, PayoutSigner>();
  /** The runs: one at a time per network, never throwing. */
  private readonly job = new PerNetworkJob(this.logger, 'payouts');

  constructor(
    private readonly chains: ChainConnections,
    private readonly payouts: PayoutsRepository,
    private readonly ledger: LedgerService,
    private readonly notifications: NotificationsService,
    private readonly mail: MailService,
    private readonly audit: AuditService,
    @Inject(DATABASE) private readonly db: Database,
    private readonly tokenPayouts: Erc20Payouts,
    private readonly cold: ColdPayoutsService,
  ) {
    for (const chain of chains.list()) {
      if (chain.family === 'utxo' && chain.wallet) this.signers.set(chain.network, new NodeWalletSigner(chain as ConnectedChain & { wallet: string }));
      if (chain.family === 'evm' && chain.keyFile) this.signers.set(chain.network, new EvmKeySigner(chain, chain.keyFile));
    }
  }

  /** The signer of a network (undefined: its withdrawals are settled by hand). */
  signerOf(network: string): PayoutSigner | undefined {
    return this.signers.get(network);
  }

  /**
   * The network fee a send of `coinAmount` of `tokenId` would pay, for the Send confirm step: the node's fee rate
   * (`estimatesmartfee`) and the fee the hot wallet would pay for this payment (funded, never signed nor locked).
   */
  async networkFee(tokenId: string, coinAmount: string | undefined, targetBlocks = FEE_TARGET_BLOCKS): Promise<NetworkFeeDto> {
    const chain = this.chains.list().find((c) => this.signers.get(c.network) instanceof NodeWalletSigner && c.nativeCoins.includes(tokenId));
    if (!chain) throw new InvalidInputError(`"${String(tokenId).slice(0, 40)}" is not paid out on the chain by the platform: no network fee estimate.`);
    const text = typeof coinAmount === 'string' ? coinAmount.trim() : '';
    let amountBase: bigint;
    try {
      amountBase = coinsToBase(text, chain.nativeDecimals);
    } catch {
      throw new InvalidInputError(`coinAmount must be a positive amount with at most ${chain.nativeDecimals} decimals.`);
    }
    if (amountBase <= 0n) throw new InvalidInputError(`coinAmount must be a positive amount with at most ${chain.nativeDecimals} decimals.`);
    const signer = this.signers.get(chain.network) as NodeWalletSigner;
    const estimate = await signer.client.call<{ feerate?: number }>('estimatesmartfee', [targetBlocks]).catch(() => ({}) as { feerate?: number });
    const feeRateBase = typeof estimate.feerate === 'number' ? coinsToBase(estimate.feerate, chain.nativeDecimals) : null;
    let feeBase = await signer.feeFor(amountBase).catch(() => null);
    // The wallet cannot fund it (or is unreachable): the rate times a typical payout's size.
    if (feeBase === null && feeRateBase !== null) feeBase = (feeRateBase * TYPICAL_PAYOUT_VBYTES + 999n) / 1000n;
    const amount = baseToCoins(amountBase, chain.nativeDecimals);
    return {
      token: tokenId,
      network: chain.network,
      coinAmount: amount,
      estimatedFee: feeBase === null ? null : baseToCoins(feeBase, chain.nativeDecimals),
      feeRate: feeRateBase === null ? null : baseToCoins(feeRateBase, chain.nativeDecimals),
      targetBlocks,
      recipientGets: amount,
      feePaidBy: 'platform',
    };
  }

  onApplicationBootstrap(): void {
    for (const network of this.signers.keys()) {
      const chain = this.chains.get(network)!;
      const from = chain.wallet ? `the node wallet "${chain.wallet}"` : 'the hot address of its key file';
      this.logger.log(`Paying out approved ${network} withdrawals from ${from} every ${chain.pollSeconds} s`);
      this.job.start(network, chain.pollSeconds * 1000, () => this.run(network, {}));
    }
  }

  onModuleDestroy(): Promise<void> {
    return this.job.close();
  }

  /** Stops the scheduled runs (tests drive `runOnce` themselves; shutdown). */
  stop(): void {
    this.job.stop();
  }

  /** A run that never throws: a failure is logged (never with credentials) and retried with back-off. */
  runSafely(network: string, options: PayoutRunOptions = {}): Promise<PayoutRunResult | undefined> {
    return this.job.safely(network, () => this.run(network, options));
  }

  /** One run of a network's payouts: create the due ones, sign, broadcast, count confirmations. */
  runOnce(network: string, options: PayoutRunOptions = {}): Promise<PayoutRunResult> {
    return this.job.once(network, () => this.run(network, options));
  }

  private lockKey(network: string): number {
    return PAYOUT_LOCK_BASE + CHAIN_NETWORKS.indexOf(network as ChainNetwork);
  }

  /** `work` in a transaction holding the network's payout lock; undefined when another instance holds it. */
  private locked<T>(network: string, work: (tx: Tx) => Promise<T>): Promise<T | undefined> {
    return inTransaction(this.db, async (tx) => ((await tryXactLock(tx, this.lockKey(network))) ? work(tx) : undefined));
  }

  private async run(network: string, options: PayoutRunOptions): Promise<PayoutRunResult> {
    const chain = this.chains.get(network);
    const signer = this.signers.get(network);
    if (!chain || !signer) throw new Error(`${network} has no payout signer (CHAIN_${network.toUpperCase()}_WALLET or _KEY_FILE)`);
    const result: PayoutRunResult = { network, created: 0, signed: 0, broadcast: 0, completed: 0 };
    const created = await this.locked(network, async (tx) => {
      await this.payouts.enableNetwork(network, tx);
      const native = await this.payouts.createDue(network, chain.nativeCoins, chain.nativeDecimals, chain.confirmations, tx);
      return native + (await this.tokenPayouts.createDue(chain, tx));
    });
    if (created === undefined) return { ...result, yielded: true };
    result.created = created;

    // Sign: each payout in its own transaction, committed before anything is broadcast; never with the inputs of a
    // payment signed before and not broadcast yet.
    const unsent = await this.payouts.unsentRawTxs(network);
    if (unsent.length && signer instanceof NodeWalletSigner) await signer.reserveInputs(unsent);
    const visited: string[] = [];
    for (;;) {
      const step = await this.locked(network, async (tx) => {
        const payout = await this.payouts.lockNext(network, ['approved', 'awaiting_funds'], visited, tx);
        if (!payout) return 'none' as const;
        visited.push(payout.id);
        // Above the hot limits: it waits for a cold signature instead (README "Hot and cold").
        if (await this.cold.routeToCold(chain, payout, tx)) return 'skipped' as const;
        return (await this.sign(chain, signer, payout, tx)) ? ('signed' as const) : ('skipped' as const);
      });
      if (step === undefined) return { ...result, yielded: true };
      if (step === 'none') break;
      if (step === 'signed') result.signed++;
    }
    if (options.stopAfterSigning) return result;

    // Broadcast the stored bytes (again, after a restart or a node outage: the same bytes).
    visited.length = 0;
    for (;;) {
      const step = await this.locked(network, async (tx) => {
        const payout = await this.payouts.lockNext(network, ['signed'], visited, tx);
        if (!payout) return 'none' as const;
        visited.push(payout.id);
        return (await this.broadcast(chain, signer, payout, tx)) ? ('sent' as const) : ('kept' as const);
      });
      if (step === undefined) return { ...result, yielded: true };
      if (step === 'none') break;
      if (step === 'sent') result.broadcast++;
    }

    // Confirmations, read from the node.
    visited.length = 0;
    for (;;) {
      const step = await this.locked(network, async (tx) => {
        const payout = await this.payouts.lockNext(network, ['broadcast', 'confirming'], visited, tx);
        if (!payout) return 'none' as const;
        visited.push(payout.id);
        return (await this.confirm(chain, signer, payout, tx)) ? ('completed' as const) : ('open' as const);
      });
      if (step === undefined) return { ...result, yielded: true };
      if (step === 'none') break;
      if (step === 'completed') result.completed++;
    }
    return result;
  }

  private async sign(chain: ConnectedChain, signer: PayoutSigner, payout: PayoutRecord, tx: Tx): Promise<boolean> {
    const request = { transactionId: payout.transactionId, network: payout.network, address: payout.address, amountBase: BigInt(payout.amountBase) };
    try {
      const signed = await signer.sign(request, tx);
      await this.payouts.update(
        payout,
        { state: 'signed', rawTx: signed.rawTx, txid: signed.txid, feeBase: signed.feeBase.toString(), signedAt: new Date(), lastError: null },
        chain.nativeDecimals,
        tx,
      );
      this.logger.log(`Signed the payout of withdrawal ${payout.transactionId} on ${payout.network}: ${signed.txid}`);
      return true;
    } catch (error) {
      if (error instanceof SignerRefusal && error.notApproved) {
        // Not approved (any more) and nothing signed: no payment is due; approved again later, it gets a new row.
        await this.payouts.remove(payout.id, tx);
        return false;
      }
      if (error instanceof SignerRefusal) {
        await this.fail(chain, payout, `The signer refused: ${error.message}`, tx);
        return false;
      }
      if (error instanceof HotWalletShort) {
        if (await this.cold.holdShortPayout(chain, payout, error.message, tx)) return false;
        await this.payouts.update(payout, { state: 'awaiting_funds', lastError: error.message, attempted: true }, chain.nativeDecimals, tx);
        return false;
      }
      if (error instanceof ChainRpcError) {
        // The node is down or answered garbage: nothing was signed and stored; the next run tries again.
        await this.payouts.update(payout, { lastError: error.message, attempted: true }, chain.nativeDecimals, tx);
        return false;
      }
      throw error;
    }
  }

  /**
   * A payout that will never be signed (nothing went to the chain): `cp_fail_payout` fails it and, while the withdrawal
   * is still approved, returns the held amount to the customer by a reversal entry with the reason and rejects the
   * withdrawal — in the caller's transaction, which holds the payout's row lock, so it happens once. Here: the texts.
   */
  private async fail(chain: ConnectedChain, payout: PayoutRecord, reason: string, tx: Tx): Promise<void> {
    const withdrawal = await this.payouts.withdrawalView(payout.transactionId, tx);
    const notice =
      withdrawal &&
      this.notifications.notificationRecord({
        userId: withdrawal.userId,
        title: 'Withdrawal failed',
        message: `Your withdrawal could not be paid on the chain, so the amount was returned to your balance. Reason: ${reason}`,
        status: 'rejected',
        createdBy: null,
      });
    const mail = withdrawal?.email
      ? this.mail.outboxRecord({
          to: withdrawal.email,
          subject: 'Withdrawal failed',
          text: `Hello ${withdrawal.name},\n\nyour withdrawal could not be paid on the chain, so the amount was returned to your Coinpurse balance.\n\nReason: ${reason}\n`,
        })
      : undefined;
    const audit = this.audit.row(null, {
      action: 'chain.payout_failed',
      targetType: 'transaction',
      targetId: payout.transactionId,
      before: { status: 'approved' },
      after: { status: 'rejected', reason },
    });
    const returned = await this.ledger.runIn(
      tx,
      FAIL_PAYOUT,
      (shard) => [
        payout.id,
        reason,
        payoutDetails({ ...payout, state: 'failed' }, chain.nativeDecimals),
        shard,
        { audit: [audit], ...(notice ? { notifications: [notice.row] } : {}), ...(mail ? { mail: [mail.row] } : {}) },
      ],
      { changes: withdrawal ? [{ userId: withdrawal.userId, token: withdrawal.token }] : [] },
    );
    if (returned !== true) return;
    await notice?.publish(tx);
    await mail?.publish(tx);
    this.logger.warn(`Payout of withdrawal ${payout.transactionId} on ${payout.network} failed and was returned to the customer: ${reason}`);
  }

  /** The customer's notification and mail, and the audit entry, when the payment reaches its confirmations. */
  private async announceCompleted(chain: ConnectedChain, payout: PayoutRecord, confirmations: number, tx: Tx): Promise<void> {
    const withdrawal = await this.payouts.withdrawalView(payout.transactionId, tx);
    if (!withdrawal) return;
    const amountText = describeAmount(withdrawal.coinAmount, withdrawal.token, await this.payouts.symbolOf(withdrawal.token, tx));
    const network = findNetwork(chain.network);
    const link = network ? explorerUrl(network.explorerTx, payout.txid!) : '';
    const message = `Your withdrawal of ${amountText} was paid on ${network?.shortName ?? chain.network} and has ${confirmations} confirmations. Transaction hash: ${payout.txid}`;
    await this.notifications.notify({ userId: withdrawal.userId, title: 'Withdrawal completed', message, status: 'approved', createdBy: null }, tx);
    if (withdrawal.email) {
      await this.mail.send(
        { to: withdrawal.email, subject: `Withdrawal completed: ${amountText}`, text: `Hello ${withdrawal.name},\n\n${message}\n${link}\n` },
        tx,
      );
    }
    await this.audit.record(
      null,
      {
        action: 'chain.payout_completed',
        targetType: 'transaction',
        targetId: withdrawal.id,
        after: { network: chain.network, txid: payout.txid, fee: payout.feeBase, confirmations },
      },
      tx,
    );
  }

  private async broadcast(chain: ConnectedChain, signer: PayoutSigner, payout: PayoutRecord, tx: Tx): Promise<boolean> {
    try {
      await signer.broadcast(payout.rawTx!);
    } catch (error) {
      if (!(error instanceof ChainRpcError)) throw error;
      await this.payouts.update(payout, { lastError: broadcastError(error), attempted: true }, chain.nativeDecimals, tx);
      return false;
    }
    await this.payouts.update(payout, { state: 'broadcast', broadcastAt: new Date(), lastError: null, attempted: true }, chain.nativeDecimals, tx);
    this.logger.log(`Broadcast the payout of withdrawal ${payout.transactionId} on ${payout.network}: ${payout.txid}`);
    return true;
  }

  private async confirm(chain: ConnectedChain, signer: PayoutSigner, payout: PayoutRecord, tx: Tx): Promise<boolean> {
    let seen: { confirmations: number; feeBase?: bigint };
    try {
      // A cold payment may be invisible to the hot signer (a UTXO payment from the cold wallet).
      seen = await (this.cold.statusReader(payout) ?? signer).status(payout.txid!);
    } catch (error) {
      if (!(error instanceof ChainRpcError)) throw error;
      await this.payouts.update(payout, { lastError: error.message }, chain.nativeDecimals, tx);
      return false;
    }
    const confirmations = Math.max(0, seen.confirmations);
    if (seen.confirmations <= 0) {
      // Not in a block of the best chain (dropped from the mempool, or its block orphaned): the same bytes again.
      await signer.broadcast(payout.rawTx!).catch(() => undefined);
    }
    const feeBase = seen.feeBase !== undefined ? seen.feeBase.toString() : payout.feeBase;
    const completed = confirmations >= payout.requiredConfirmations;
    const state = completed ? 'completed' : confirmations > 0 ? 'confirming' : 'broadcast';
    if (state === payout.state && confirmations === payout.confirmations) return false;
    await this.payouts.update(
      payout,
      { state, confirmations, feeBase, lastError: null, ...(completed ? { completedAt: new Date() } : {}) },
      chain.nativeDecimals,
      tx,
    );
    if (completed) {
      await this.announceCompleted(chain, payout, confirmations, tx);
      this.logger.log(`Payout of withdrawal ${payout.transactionId} on ${payout.network} completed: ${payout.txid}`);
    }
    return completed;
  }
}

/** A broadcast the node refused, said for people (the payout stays signed: the same bytes are tried again). */
function broadcastError(error: ChainRpcError): string {
  if (error.rpcCode === RPC_VERIFY_REJECTED && /fee/i.test(error.message)) return `The node rejected the fee as too low: ${error.message}`;
  if (error.rpcCode === RPC_VERIFY_ERROR || /missing ?inputs|missingorspent/i.test(error.message)) {
    return `The node says the inputs are missing or spent (an admin must check the hot wallet): ${error.message}`;
  }
  if (error.rpcCode === RPC_VERIFY_REJECTED) return `The node rejected the transaction: ${error.message}`;
  return `The node could not be reached to broadcast (will retry with the same bytes): ${error.message}`;
}
