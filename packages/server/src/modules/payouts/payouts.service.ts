import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DATABASE, type Database, type Tx } from '../../db/database';
import { JobLocks } from '../../db/advisory-locks';

import { ChainConnections, type ConnectedChain } from '../chain/chain-connections';
import { ChainRpcError } from '../../chain-core/json-rpc';

import { HotWalletLocked, HotWalletShort, SignerRefusal } from '../../chain-core/signer-contract';
import type { PayoutSigner } from '../signer-client/signer-client';
import type { SignerClient } from '../signer-client/signer-client';
import { SignerClients } from '../signer-client/signer-clients';
import { type PayoutRecord, PayoutsRepository } from './payouts.repository';
import { PerNetworkJob } from '../../jobs/per-network-job';
import { Erc20Payouts } from './erc20-payouts';
import { ColdPayoutsService } from './cold-payouts.service';
import { FeeAboveCeiling } from '../../chain-core/fees';
import { PayoutBumps, type StoredReplacement } from './payout-bumps';
import { PayoutCompletion } from './payout-completion';
import { PayoutFailures } from './payout-failures';
import { HotWalletLocks } from './hot-wallet-locks';

const RPC_VERIFY_REJECTED = -26;
const RPC_VERIFY_ERROR = -25;

export interface PayoutRunResult {
  network: string;
  created: number;
  signed: number;
  broadcast: number;
  completed: number;
  /** Stuck payouts whose fee was bumped (absent when none). */
  bumped?: number;
  /** Another instance holds the network's payout lock: this run did nothing. */
  yielded?: boolean;
}

export interface PayoutRunOptions {
  /** Stop right after the signed payouts are stored (tests: a process that dies before it broadcasts). */
  stopAfterSigning?: boolean;
}

/**
 * Pays approved withdrawals on the networks with a signer process (`CHAIN_<NETWORK>_SIGNER_URL`), one job per network on one
 * instance at a time (a transaction-scoped advisory lock per step, payout rows locked too). Each payout moves
 * approved → signed (bytes and txid stored, committed) → broadcast (`sendrawtransaction` of the stored bytes) →
 * confirming n of N → completed. A retry, a restart or a second instance only ever rebroadcasts the stored bytes: a
 * withdrawal has one payout row (unique), and a row is signed once, under its lock, from the approved state only.
 * Failures are kept on the row (`last_error`) with a state that says what happens next: awaiting_funds (the hot wallet
 * is short: retried), approved with an error (the hot wallet is locked, the signer or node did not answer, the fee is
 * above the signer's ceiling: retried), failed (the signer refused: for an admin), signed with an error (the node
 * rejected or was down: rebroadcast). Runs never throw.
 */
@Injectable()
export class PayoutsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Payouts');
  /** The runs: one at a time per network, never throwing; each step under the network's payout lock. */
  private readonly job: PerNetworkJob;

  constructor(
    private readonly chains: ChainConnections,
    private readonly payouts: PayoutsRepository,
    @Inject(DATABASE) private readonly db: Database,
    private readonly tokenPayouts: Erc20Payouts,
    private readonly cold: ColdPayoutsService,
    private readonly bumps: PayoutBumps,
    private readonly completion: PayoutCompletion,
    private readonly failures: PayoutFailures,
    private readonly signers: SignerClients,
    private readonly locks: HotWalletLocks,
  ) {
    this.job = new PerNetworkJob({ name: 'payouts', logger: this.logger, db, lockBase: JobLocks.payoutsBase });
  }

  /** The signer process of a network (undefined: its withdrawals are settled by hand). */
  signerOf(network: string): SignerClient | undefined {
    return this.signers.get(network);
  }

  onApplicationBootstrap(): void {
    for (const network of this.signers.networks()) {
      const chain = this.chains.get(network)!;
      this.logger.log(`Paying out approved ${network} withdrawals, signed by the signer process at ${chain.signerUrl}, every ${chain.pollSeconds} s`);
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

  /** `work` in a transaction holding the network's payout lock; undefined when another instance holds it. */
  private locked<T>(network: string, work: (tx: Tx) => Promise<T>): Promise<T | undefined> {
    return this.job.locked(network, work);
  }

  private async run(network: string, options: PayoutRunOptions): Promise<PayoutRunResult> {
    const chain = this.chains.get(network);
    const signer = this.signers.get(network);
    if (!chain || !signer) throw new Error(`${network} has no payout signer (CHAIN_${network.toUpperCase()}_SIGNER_URL)`);
    const result: PayoutRunResult = { network, created: 0, signed: 0, broadcast: 0, completed: 0 };
    const created = await this.locked(network, async (tx) => {
      await this.payouts.enableNetwork(network, tx);
      const native = await this.payouts.createDue(network, chain.nativeCoins, chain.nativeDecimals, chain.confirmations, tx);
      return native + (await this.tokenPayouts.createDue(chain, tx));
    });
    if (created === undefined) return { ...result, yielded: true };
    result.created = created;

    // Sign: each payout in its own transaction, committed before anything is broadcast; never with the inputs of a
    // payment signed before and not broadcast yet (the signer locks those itself before it funds another one, so a
    // signer that is down never holds up the broadcasts and confirmations below).
    const visited: string[] = [];
    for (;;) {
      const step = await this.locked(network, async (tx) => {
        const payout = await this.payouts.lockNext(network, ['approved', 'awaiting_funds'], visited, tx);
        if (!payout) return 'none' as const;
        visited.push(payout.id);
        // Above the hot limits: it waits for a cold signature instead (docs/operate/cold-wallets-and-reserves.md).
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

    // Confirmations, read from the node; a stuck payment's replacement is broadcast once it is stored.
    visited.length = 0;
    for (;;) {
      const step = await this.locked(network, async (tx) => {
        const payout = await this.payouts.lockNext(network, ['broadcast', 'confirming'], visited, tx);
        if (!payout) return 'none' as const;
        visited.push(payout.id);
        return this.confirm(chain, signer, payout, tx);
      });
      if (step === undefined) return { ...result, yielded: true };
      if (step === 'none') break;
      if (step === 'completed') result.completed++;
      if (typeof step === 'object' && (await this.bumps.sendReplacement(chain, signer, step))) result.bumped = (result.bumped ?? 0) + 1;
    }
    return result;
  }

  private async sign(chain: ConnectedChain, signer: PayoutSigner, payout: PayoutRecord, tx: Tx): Promise<boolean> {
    const request = { transactionId: payout.transactionId, network: payout.network, address: payout.address, amountBase: BigInt(payout.amountBase) };
    try {
      const signed = await signer.sign(request, tx);
      await this.payouts.update(
        payout,
        {
          state: 'signed',
          rawTx: signed.rawTx,
          txid: signed.txid,
          feeBase: signed.feeBase.toString(),
          chargedFeeBase: (signed.chargedFeeBase ?? 0n).toString(),
          signedAt: new Date(),
          lastError: null,
        },
        chain.nativeDecimals,
        tx,
      );
      this.logger.log(`Signed the payout of withdrawal ${payout.transactionId} on ${payout.network}: ${signed.txid}`);
      await this.locks.signed(payout.network, tx);
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
      if (error instanceof HotWalletLocked) {
        // The operator's to mend (walletpassphrase), never the customer's loss: it waits, retried every run.
        await this.locks.wait(chain, payout, error.message, tx);
        return false;
      }
      if (error instanceof HotWalletShort) {
        if (await this.cold.holdShortPayout(chain, payout, error.message, tx)) return false;
        await this.payouts.update(payout, { state: 'awaiting_funds', lastError: error.message, attempted: true }, chain.nativeDecimals, tx);
        // Said once, when it starts waiting: every run tries it again, and a line per run would bury the rest.
        if (payout.state !== 'awaiting_funds') {
          this.logger.warn(`The payout of withdrawal ${payout.transactionId} on ${payout.network} waits for funds: ${error.message}`);
        }
        return false;
      }
      if (error instanceof ChainRpcError || error instanceof FeeAboveCeiling) {
        // The node is down or answered garbage, or the fee is above the ceiling now: nothing was signed and stored; the
        // next run tries again.
        await this.payouts.update(payout, { lastError: error.message, attempted: true }, chain.nativeDecimals, tx);
        return false;
      }
      throw error;
    }
  }

  /** The signer refused: the payout fails, the held amount returns to the customer (PayoutFailures). */
  private async fail(chain: ConnectedChain, payout: PayoutRecord, reason: string, tx: Tx): Promise<void> {
    await this.failures.fail(chain, payout, { reason, actor: null, action: 'chain.payout_failed' }, tx);
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

  /**
   * Counts the payment's confirmations (whichever of its versions is mined, see PayoutBumps). One not in a block yet is
   * sent again (the same bytes) or, stuck for the network's stuck minutes, replaced by a higher fee: the replacement is
   * returned to be broadcast after this transaction commits. At its confirmations the payout completes with its fee
   * booked (PayoutCompletion).
   */
  private async confirm(chain: ConnectedChain, signer: PayoutSigner, payout: PayoutRecord, tx: Tx): Promise<'completed' | 'open' | StoredReplacement> {
    let seen: { confirmations: number; feeBase?: bigint };
    try {
      // A cold payment may be invisible to the hot signer (a UTXO payment from the cold wallet), and is never bumped
      // (the hot wallet cannot sign its replacement).
      const coldReader = this.cold.statusReader(payout);
      if (coldReader) seen = await coldReader.status(payout.txid!);
      else ({ payout, seen } = await this.bumps.confirmedVersion(chain, signer, payout, tx));
    } catch (error) {
      if (!(error instanceof ChainRpcError)) throw error;
      await this.payouts.update(payout, { lastError: error.message }, chain.nativeDecimals, tx);
      return 'open';
    }
    const confirmations = Math.max(0, seen.confirmations);
    if (seen.confirmations <= 0) {
      const replacement = await this.bumps.bumpIfStuck(chain, signer, payout, tx);
      if (replacement) return replacement;
      // Not in a block of the best chain (dropped from the mempool, or its block orphaned): the same bytes again.
      await signer.broadcast(payout.rawTx!).catch(() => undefined);
    }
    const feeBase = seen.feeBase !== undefined ? seen.feeBase.toString() : payout.feeBase;
    if (confirmations >= payout.requiredConfirmations && feeBase !== null) {
      return (await this.completion.complete(chain, payout, confirmations, feeBase, tx)) ? 'completed' : 'open';
    }
    const state = confirmations > 0 ? 'confirming' : 'broadcast';
    if (state === payout.state && confirmations === payout.confirmations) return 'open';
    await this.payouts.update(payout, { state, confirmations, feeBase, lastError: null }, chain.nativeDecimals, tx);
    return 'open';
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
