import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import Decimal from 'decimal.js';
import { DATABASE, type Database, type Tx } from '../../db/database';
import { JobLocks } from '../../db/advisory-locks';

import { ChainConnections, type ConnectedChain } from '../chain/chain-connections';
import { EvmNode } from '../../chain-core/evm-node';
import { ChainRpcError } from '../../chain-core/json-rpc';
import { PerNetworkJob } from '../../jobs/per-network-job';

import { LedgerService } from '../ledger/ledger.service';
import { AuditService } from '../audit/audit.service';
import { TokenNetworksRepository } from '../networks/token-networks.repository';
import { balanceOfAnswer, balanceOfCall } from '../../chain-core/erc20';
import type { SignerClient } from '../signer-client/signer-client';
import { HotWalletShort, SignerRefusal, SweepDeferred } from '../../chain-core/signer-contract';
import { SignerClients } from '../signer-client/signer-clients';
import { RECORD_SWEEP } from './sweep-functions';
import { type SweepRecord, SweepsRepository } from './sweeps.repository';

/** Sweeps run at most this often (each run reads the balances of the deposit addresses that received coins). */
const MIN_SWEEP_INTERVAL_SECONDS = 60;
/** Deposit addresses whose balances are read in one batch. */
const BALANCE_BATCH = 50;

export interface SweepRunResult {
  network: string;
  planned: number;
  toppedUp: number;
  signed: number;
  broadcast: number;
  completed: number;
  /** Another instance holds the network's sweep lock: this run did nothing. */
  yielded?: boolean;
}

export interface SweepRunOptions {
  /** Stop right after the signed sweeps are stored (tests: a process that dies before it broadcasts). */
  stopAfterSigning?: boolean;
}

type Counter = 'toppedUp' | 'signed' | 'broadcast' | 'completed';

interface TokenContract {
  coinId: string;
  contract: string;
  decimals: number;
}

/** The parts of a network a sweep run uses. */
interface SweepNetwork {
  chain: ConnectedChain & { sweepMinUsd: string };
  /** Broadcasts (the node's public RPC). */
  payer: SignerClient;
  /** Signs the sweeps and their top-ups: the signer process (it holds the xprv, or refuses). */
  sweeper: SignerClient;
}

/**
 * Sweeps the customers' deposit addresses of the EVM networks whose signer process holds the account's xprv and that set
 * `CHAIN_<NETWORK>_SWEEP_MIN`: a coin worth at least that many USD on an address (its native coin after its gas) moves
 * to the hot address. One job per network, one instance at a time (a transaction-scoped advisory lock per step, the
 * sweep rows locked too); a run is safe to repeat. Each sweep moves planned → (ERC-20: topping_up, the hot address's
 * gas sent to the deposit address and mined) → ready → signed (bytes and txid committed before the broadcast) →
 * broadcast → completed, recorded in the ledger by `cp_record_sweep` once confirmed: a movement between platform
 * accounts (deposits, hot_wallet, network_fees), never a customer's balance. A restart or a second instance only
 * rebroadcasts the stored bytes.
 */
@Injectable()
export class SweepsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Sweeps');
  /** The runs: one at a time per network, never throwing; each step under the network's sweep lock. */
  private readonly job: PerNetworkJob;

  constructor(
    private readonly chains: ChainConnections,
    private readonly signers: SignerClients,
    private readonly sweeps: SweepsRepository,
    private readonly tokenNetworks: TokenNetworksRepository,
    private readonly ledger: LedgerService,
    private readonly audit: AuditService,
    @Inject(DATABASE) private readonly db: Database,
  ) {
    this.job = new PerNetworkJob({ name: 'sweeps', logger: this.logger, db, lockBase: JobLocks.sweepsBase });
  }

  /** The networks that sweep: a threshold and the signer process (which holds the xprv, or refuses). */
  private sweepNetwork(network: string): SweepNetwork | undefined {
    const chain = this.chains.get(network);
    const payer = this.signers.get(network);
    if (!chain || chain.family !== 'evm' || chain.sweepMinUsd === undefined || !payer) return undefined;
    return { chain: chain as SweepNetwork['chain'], payer, sweeper: payer };
  }

  onApplicationBootstrap(): void {
    for (const chain of this.chains.list()) {
      if (!this.sweepNetwork(chain.network)) continue;
      const seconds = Math.max(chain.pollSeconds, MIN_SWEEP_INTERVAL_SECONDS);
      this.logger.log(`Sweeping ${chain.network} deposit addresses holding at least ${chain.sweepMinUsd} USD to the hot address every ${seconds} s`);
      this.job.start(chain.network, seconds * 1000, () => this.run(chain.network));
    }
  }

  onModuleDestroy(): Promise<void> {
    return this.job.close();
  }

  /** Stops the scheduled runs (tests drive `runOnce` themselves; shutdown). */
  stop(): void {
    this.job.stop();
  }

  /** One run of a network's sweeps: plan, top up, sign, broadcast, record the confirmed ones. */
  runOnce(network: string, options: SweepRunOptions = {}): Promise<SweepRunResult> {
    return this.job.once(network, () => this.run(network, options));
  }

  /** `work` in a transaction holding the network's sweep lock; undefined when another instance holds it. */
  private locked<T>(network: string, work: (tx: Tx) => Promise<T>): Promise<T | undefined> {
    return this.job.locked(network, work);
  }

  /** Each step on each open sweep in `states`, one locked transaction per sweep; false when another instance holds the lock. */
  private async eachSweep(
    network: string,
    states: SweepRecord['state'][],
    step: (sweep: SweepRecord, tx: Tx) => Promise<boolean>,
  ): Promise<{ done: number; yielded: boolean }> {
    const visited: string[] = [];
    let done = 0;
    for (;;) {
      const outcome = await this.locked(network, async (tx) => {
        const sweep = await this.sweeps.lockNext(network, states, visited, tx);
        if (!sweep) return 'none' as const;
        visited.push(sweep.id);
        return (await step(sweep, tx)) ? ('done' as const) : ('kept' as const);
      });
      if (outcome === undefined) return { done, yielded: true };
      if (outcome === 'none') return { done, yielded: false };
      if (outcome === 'done') done++;
    }
  }

  private async run(network: string, options: SweepRunOptions = {}): Promise<SweepRunResult> {
    const sweeping = this.sweepNetwork(network);
    if (!sweeping) throw new Error(`${network} does not sweep (CHAIN_${network.toUpperCase()}_SWEEP_MIN and _SIGNER_URL, the xprv in the signer's key file)`);
    const result: SweepRunResult = { network, planned: 0, toppedUp: 0, signed: 0, broadcast: 0, completed: 0 };
    const planned = await this.locked(network, (tx) => this.plan(sweeping, tx));
    if (planned === undefined) return { ...result, yielded: true };
    result.planned = planned;
    // Each step over the open sweeps in its states, counting the ones it moved on.
    const steps: Array<[Counter | null, SweepRecord['state'][], (sweep: SweepRecord, tx: Tx) => Promise<boolean>]> = [
      ['toppedUp', ['planned'], (sweep, tx) => this.topUp(sweeping, sweep, tx)],
      [null, ['topping_up'], (sweep, tx) => this.awaitTopUp(sweeping, sweep, tx)],
      ['signed', ['planned', 'ready'], (sweep, tx) => this.sign(sweeping, sweep, tx)],
      ['broadcast', ['signed'], (sweep, tx) => this.broadcast(sweeping, sweep, tx)],
      ['completed', ['broadcast'], (sweep, tx) => this.confirm(sweeping, sweep, tx)],
    ];
    for (const [counter, states, step] of steps) {
      if (options.stopAfterSigning && counter === 'broadcast') break;
      const { done, yielded } = await this.eachSweep(network, states, step);
      if (counter) result[counter] += done;
      if (yielded) return { ...result, yielded: true };
    }
    return result;
  }

  /**
   * Plans a sweep for each candidate address holding a coin worth at least the threshold: an ERC-20 token first (its
   * gas comes from the hot address), else the native coin when what is left after its gas is worth it.
   */
  private async plan({ chain, sweeper }: SweepNetwork, tx: Tx): Promise<number> {
    const addresses = await this.sweeps.candidates(chain.network, tx);
    if (!addresses.length) return 0;
    const contracts = await this.tokenContracts(chain);
    const prices = await this.sweeps.prices([...chain.nativeCoins, ...contracts.map((c) => c.coinId)], tx);
    const nativeToken = chain.nativeCoins.find((coin) => prices.has(coin)) ?? chain.nativeCoins[0];
    const minUsd = new Decimal(chain.sweepMinUsd);
    const worth = (amountBase: bigint, decimals: number, token: string) => {
      const price = prices.get(token);
      return amountBase > 0n && price !== undefined && new Decimal(amountBase.toString()).div(new Decimal(10).pow(decimals)).mul(price).gte(minUsd);
    };
    const gasCost = await sweeper.nativeSweepGasCost();
    const rpc = (chain.node as EvmNode).client;
    let planned = 0;
    for (let start = 0; start < addresses.length; start += BALANCE_BATCH) {
      const chunk = addresses.slice(start, start + BALANCE_BATCH);
      const answers = await rpc.batch<unknown>(
        chunk.flatMap((address) => [{ method: 'eth_getBalance', params: [address, 'latest'] }, ...contracts.map((c) => balanceOfCall(c.contract, address))]),
      );
      for (const [i, address] of chunk.entries()) {
        const row = answers.slice(i * (1 + contracts.length), (i + 1) * (1 + contracts.length));
        const token = contracts.find((c, j) => worth(balanceOfAnswer(row[1 + j]), c.decimals, c.coinId));
        if (typeof row[0] !== 'string' || !/^0x[0-9a-f]+$/i.test(row[0])) throw new ChainRpcError('eth_getBalance answered something else than a quantity');
        const native = BigInt(row[0]) - gasCost;
        if (!token && !worth(native, chain.nativeDecimals, nativeToken)) continue;
        const inserted = await this.sweeps.insert(
          {
            network: chain.network,
            address,
            token: token ? token.coinId : nativeToken,
            contract: token ? token.contract : null,
            decimals: token ? token.decimals : chain.nativeDecimals,
            nativeToken,
            nativeDecimals: chain.nativeDecimals,
            requiredConfirmations: chain.confirmations,
          },
          tx,
        );
        if (inserted) planned++;
      }
    }
    return planned;
  }

  /** The ERC-20 tokens of the network: live tokens whose row there has a contract, with the contract's decimals. */
  private async tokenContracts(chain: ConnectedChain): Promise<TokenContract[]> {
    const out: TokenContract[] = [];
    for (const row of await this.tokenNetworks.listLive()) {
      if (row.network !== chain.network || !row.contractAddress || chain.nativeCoins.includes(row.coinId)) continue;
      const decimals = row.contractDecimals ?? (await this.chains.tokenDecimals(chain.network, row.contractAddress));
      out.push({ coinId: row.coinId, contract: row.contractAddress, decimals });
    }
    return out;
  }

  /** An ERC-20 sweep's gas: signed by the hot address when the deposit address lacks it (stored; sent next step), else ready. */
  private async topUp({ sweeper }: SweepNetwork, sweep: SweepRecord, tx: Tx): Promise<boolean> {
    if (!sweep.contract) return false;
    try {
      const signed = await sweeper.signTopUp(sweep.id);
      if (!signed) {
        await this.sweeps.update(sweep.id, { state: 'ready', lastError: null }, tx);
        return false;
      }
      await this.sweeps.update(
        sweep.id,
        { state: 'topping_up', topupAmountBase: signed.amountBase.toString(), topupRawTx: signed.rawTx, topupTxid: signed.txid, lastError: null },
        tx,
      );
      this.logger.log(`Signed the gas top-up of the ${sweep.token} sweep from ${sweep.address} on ${sweep.network}: ${signed.txid}`);
      return true;
    } catch (error) {
      await this.notSigned(sweep, error, tx);
      return false;
    }
  }

  /** The stored top-up sent (again: the same bytes) until it is in a block; then the sweep is ready. */
  private async awaitTopUp({ sweeper, payer }: SweepNetwork, sweep: SweepRecord, tx: Tx): Promise<boolean> {
    try {
      const seen = await sweeper.receipt(sweep.topupTxid!);
      if (!seen) {
        await payer.broadcast(sweep.topupRawTx!);
        return false;
      }
      if (!seen.succeeded) {
        await this.sweeps.update(sweep.id, { lastError: `the gas top-up ${sweep.topupTxid} reverted on chain (an admin must check)` }, tx);
        return false;
      }
      await this.sweeps.update(sweep.id, { state: 'ready', lastError: null }, tx);
      return false;
    } catch (error) {
      if (!(error instanceof ChainRpcError)) throw error;
      await this.sweeps.update(sweep.id, { lastError: error.message, attempted: true }, tx);
      return false;
    }
  }

  private async sign({ chain, sweeper }: SweepNetwork, sweep: SweepRecord, tx: Tx): Promise<boolean> {
    if (sweep.contract && sweep.state !== 'ready') return false;
    try {
      const prices = await this.sweeps.prices([sweep.token], tx);
      const price = prices.get(sweep.token);
      // The native balance left after the gas must still be worth the threshold.
      const minNativeBase =
        sweep.contract || !price ? 0n : BigInt(new Decimal(chain.sweepMinUsd).div(price).mul(new Decimal(10).pow(sweep.decimals)).ceil().toFixed(0));
      const signed = await sweeper.signSweep(sweep.id, minNativeBase);
      await this.sweeps.update(
        sweep.id,
        { state: 'signed', amountBase: signed.amountBase.toString(), rawTx: signed.rawTx, txid: signed.txid, signedAt: new Date(), lastError: null },
        tx,
      );
      this.logger.log(`Signed the sweep of ${sweep.token} from ${sweep.address} on ${sweep.network}: ${signed.txid}`);
      return true;
    } catch (error) {
      await this.notSigned(sweep, error, tx);
      return false;
    }
  }

  /**
   * Nothing was signed: not worth it any more (the row goes; the address is looked at again), refused (failed, for
   * an admin; after a top-up the row stays, the gas is booked when it is swept), or the node or hot address are not
   * ready (kept with the reason, retried).
   */
  private async notSigned(sweep: SweepRecord, error: unknown, tx: Tx): Promise<void> {
    const gasSent = sweep.topupTxid !== null;
    if (error instanceof SweepDeferred && !gasSent) return this.sweeps.remove(sweep.id, tx);
    if (error instanceof SignerRefusal && !gasSent)
      return this.sweeps.update(sweep.id, { state: 'failed', lastError: `The signer refused: ${error.message}` }, tx);
    if (error instanceof SweepDeferred || error instanceof SignerRefusal || error instanceof HotWalletShort || error instanceof ChainRpcError) {
      return this.sweeps.update(sweep.id, { lastError: error.message, attempted: true }, tx);
    }
    throw error;
  }

  private async broadcast({ payer }: SweepNetwork, sweep: SweepRecord, tx: Tx): Promise<boolean> {
    try {
      // Its gas first, should the top-up have fallen out of the chain meanwhile (known: nothing happens).
      if (sweep.topupRawTx) await payer.broadcast(sweep.topupRawTx).catch(() => undefined);
      await payer.broadcast(sweep.rawTx!);
    } catch (error) {
      if (!(error instanceof ChainRpcError)) throw error;
      await this.sweeps.update(
        sweep.id,
        { lastError: `The node refused or was not reached (the same bytes are sent again): ${error.message}`, attempted: true },
        tx,
      );
      return false;
    }
    await this.sweeps.update(sweep.id, { state: 'broadcast', broadcastAt: new Date(), lastError: null }, tx);
    return true;
  }

  /** Confirmations from the node; once reached, `cp_record_sweep` books it (the fees paid read from the receipts). */
  private async confirm({ sweeper, payer }: SweepNetwork, sweep: SweepRecord, tx: Tx): Promise<boolean> {
    let seen: Awaited<ReturnType<SignerClient['receipt']>>;
    let topUpFee: bigint | null = null;
    try {
      seen = await sweeper.receipt(sweep.txid!);
      if (!seen) {
        // Not in a block (dropped, or its block orphaned): the same bytes again, its gas top-up first.
        if (sweep.topupRawTx) await payer.broadcast(sweep.topupRawTx).catch(() => undefined);
        await payer.broadcast(sweep.rawTx!).catch(() => undefined);
        if (sweep.confirmations !== 0) await this.sweeps.update(sweep.id, { confirmations: 0 }, tx);
        return false;
      }
      if (seen.confirmations < sweep.requiredConfirmations) {
        if (seen.confirmations !== sweep.confirmations) await this.sweeps.update(sweep.id, { confirmations: seen.confirmations }, tx);
        return false;
      }
      if (sweep.topupTxid) {
        const topUp = await sweeper.receipt(sweep.topupTxid);
        if (!topUp) throw new ChainRpcError(`the gas top-up ${sweep.topupTxid} is not in a block`);
        topUpFee = topUp.feeBase;
      }
    } catch (error) {
      if (!(error instanceof ChainRpcError)) throw error;
      await this.sweeps.update(sweep.id, { lastError: error.message }, tx);
      return false;
    }
    const audit = this.audit.row(null, {
      action: seen.succeeded ? 'chain.sweep_completed' : 'chain.sweep_reverted',
      targetType: 'sweep',
      targetId: sweep.id,
      after: {
        network: sweep.network,
        address: sweep.address,
        token: sweep.token,
        amountBase: seen.succeeded ? sweep.amountBase : '0',
        txid: sweep.txid,
        feeBase: seen.feeBase.toString(),
        ...(sweep.topupTxid ? { topupTxid: sweep.topupTxid, topupAmountBase: sweep.topupAmountBase, topupFeeBase: topUpFee!.toString() } : {}),
      },
    });
    const recorded = await this.ledger.runIn(tx, RECORD_SWEEP, (shard) => [
      sweep.id,
      seen.confirmations,
      seen.succeeded,
      seen.feeBase.toString(),
      topUpFee === null ? null : topUpFee.toString(),
      shard,
      { audit: [audit] },
    ]);
    if (recorded !== true) return false;
    if (seen.succeeded) this.logger.log(`Sweep of ${sweep.token} from ${sweep.address} on ${sweep.network} completed: ${sweep.txid}`);
    else this.logger.warn(`Sweep of ${sweep.token} from ${sweep.address} on ${sweep.network} reverted on chain (gas booked): ${sweep.txid}`);
    return seen.succeeded;
  }
}
