import { Inject, Injectable, Logger } from '@nestjs/common';
import { DATABASE, type Database, type Tx } from '../../db/database';
import type { ConnectedChain } from '../chain/chain-connections';
import { ChainRpcError } from '../../chain-core/json-rpc';
import { inTransaction } from '../../db/in-transaction';
import { HotWalletLocked, type SignedPayout, SignerRefusal, type StoredPayment } from '../../chain-core/signer-contract';
import { FeeAboveCeiling } from '../../chain-core/fees';
import type { PayoutSigner } from '../signer-client/signer-client';
import { PayoutVersionsRepository } from './payout-versions.repository';
import type { PayoutRecord } from './payouts.repository';

/** Bitcoin Core: "Invalid or non-wallet transaction id" (a version the node never accepted). */
const RPC_INVALID_ADDRESS_OR_KEY = -5;

/** A replacement stored (committed) and still to be broadcast. */
export interface StoredReplacement {
  payoutId: string;
  transactionId: string;
  network: string;
  replaced: StoredPayment;
  replacement: SignedPayout;
}

export interface PaymentSeen {
  confirmations: number;
  feeBase?: bigint;
}

/**
 * Stuck payouts bumped, and whichever version of a bumped payment is mined. A payout unmined for
 * `CHAIN_<NETWORK>_STUCK_MINUTES` since it was broadcast (or last bumped) gets a replacement from its signer (UTXO:
 * `psbtbumpfee`, the same inputs; EVM: the same nonce, tip and fee cap +10 % or more), within the signer's
 * `CHAIN_<NETWORK>_MAX_FEE`.
 * The replacement is stored as the payout's payment (the old version kept) and committed before it is broadcast; a
 * node that refuses it leaves the old version the payout's own. The versions all spend the same inputs or nonce, so one
 * at most is mined: the one that is becomes the payout's payment and completes it, once (cp_complete_payout).
 */
@Injectable()
export class PayoutBumps {
  private readonly logger = new Logger('PayoutBumps');

  constructor(
    private readonly versions: PayoutVersionsRepository,
    @Inject(DATABASE) private readonly db: Database,
  ) {}

  /**
   * The payment's confirmations, and the payout standing by the version that is mined: when a version replaced earlier
   * is in a block instead of its own, that one becomes its payment again (the other kept as lost). Throws
   * ChainRpcError when the node cannot be asked.
   */
  async confirmedVersion(chain: ConnectedChain, signer: PayoutSigner, payout: PayoutRecord, tx: Tx): Promise<{ payout: PayoutRecord; seen: PaymentSeen }> {
    const seen = await signer.status(payout.txid!).catch((error: unknown) => {
      // A version stored but never accepted by the node (the process stopped before broadcasting it): not mined.
      if (error instanceof ChainRpcError && error.rpcCode === RPC_INVALID_ADDRESS_OR_KEY) return { confirmations: 0 };
      throw error;
    });
    if (seen.confirmations > 0) return { payout, seen };
    for (const kept of await this.versions.replacedOf(payout.id, tx)) {
      const keptSeen = await signer.status(kept.txid).catch((error: unknown) => {
        if (error instanceof ChainRpcError && error.rpcCode !== undefined) return { confirmations: 0 };
        throw error;
      });
      if (keptSeen.confirmations <= 0) continue;
      this.logger.warn(
        `The payment ${kept.txid} of withdrawal ${payout.transactionId} was mined instead of its replacement ${payout.txid}: it completes the payout`,
      );
      return { payout: await this.versions.restore(payout, kept, 'lost', null, chain.nativeDecimals, tx), seen: keptSeen };
    }
    return { payout, seen };
  }

  /** Whether an unmined payout has waited the network's stuck minutes since it was broadcast or last bumped. */
  isStuck(chain: ConnectedChain, payout: PayoutRecord, now = Date.now()): boolean {
    const since = payout.bumpedAt ?? payout.broadcastAt;
    return payout.state === 'broadcast' && since !== null && now - since.getTime() >= chain.stuckMinutes * 60_000;
  }

  /**
   * A stuck payout's replacement, stored in `tx` as its payment (the old version kept); the caller broadcasts it with
   * `sendReplacement` once `tx` has committed. Undefined when the payout is not stuck, its signer cannot replace, or
   * no higher fee is allowed (then last_error says why, and the next try waits the stuck minutes again).
   */
  async bumpIfStuck(chain: ConnectedChain, signer: PayoutSigner, payout: PayoutRecord, tx: Tx): Promise<StoredReplacement | undefined> {
    if (!signer.replace || !this.isStuck(chain, payout)) return undefined;
    const request = { transactionId: payout.transactionId, network: payout.network, address: payout.address, amountBase: BigInt(payout.amountBase) };
    const replaced: StoredPayment = { txid: payout.txid!, rawTx: payout.rawTx!, feeBase: BigInt(payout.feeBase ?? '0') };
    let replacement: SignedPayout | undefined;
    try {
      replacement = await signer.replace(request, replaced, tx);
    } catch (error) {
      if (!(error instanceof SignerRefusal || error instanceof ChainRpcError || error instanceof FeeAboveCeiling || error instanceof HotWalletLocked))
        throw error;
      await this.versions.noteNoBump(payout, `Not bumped: ${error.message}`, chain.nativeDecimals, tx);
      // The ceiling is the signer's (its CHAIN_<NETWORK>_MAX_FEE), named in its answer.
      if (error instanceof FeeAboveCeiling)
        this.logger.warn(`The payout of withdrawal ${payout.transactionId} on ${payout.network} is stuck: ${error.message}`);
      return undefined;
    }
    if (!replacement) {
      // A signer of an older version answers no replacement, without its reason: its fee ceiling.
      await this.versions.noteNoBump(payout, "Not bumped: a higher fee would pass the signer's fee ceiling", chain.nativeDecimals, tx);
      return undefined;
    }
    await this.versions.replace(payout, replacement, chain.nativeDecimals, tx);
    return { payoutId: payout.id, transactionId: payout.transactionId, network: payout.network, replaced, replacement };
  }

  /**
   * Broadcasts a stored replacement. A node that cannot be reached leaves it stored (the next run sends the same bytes);
   * a node that refuses it makes the version it replaced (still in its mempool) the payout's payment again: false.
   */
  async sendReplacement(chain: ConnectedChain, signer: PayoutSigner, stored: StoredReplacement): Promise<boolean> {
    const { replacement, replaced } = stored;
    try {
      await signer.broadcast(replacement.rawTx);
      this.logger.log(
        `Bumped the fee of the payout of withdrawal ${stored.transactionId} on ${stored.network}: ${replaced.txid} (fee ${replaced.feeBase}) → ${replacement.txid} (fee ${replacement.feeBase})`,
      );
      return true;
    } catch (error) {
      if (!(error instanceof ChainRpcError)) throw error;
      if (error.rpcCode === undefined) return true;
      const reason = `The node refused the fee bump (${replacement.txid}), the payment stays ${replaced.txid}: ${error.message}`;
      this.logger.warn(`Payout of withdrawal ${stored.transactionId} on ${stored.network}: ${reason}`);
      await inTransaction(this.db, async (tx) => {
        const payout = await this.versions.lock(stored.payoutId, tx);
        if (!payout || payout.txid !== replacement.txid || !['broadcast', 'confirming'].includes(payout.state)) return;
        const kept = (await this.versions.replacedOf(payout.id, tx)).find((version) => version.txid === replaced.txid);
        if (kept) await this.versions.restore(payout, kept, 'rejected', reason, chain.nativeDecimals, tx);
      });
      return false;
    }
  }
}
