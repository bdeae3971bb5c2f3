import { Logger } from '@nestjs/common';
import { inTransaction, type Transactional } from '../db/in-transaction';
import type { SqlExecutor } from '../db/sql-executor';
import { chainEndpoint } from '../chain-core/chain-endpoint';
import { FeeAboveCeiling } from '../chain-core/fees';
import { chainEnvPrefix } from '../config/chain-settings';
import {
  HotWalletLocked,
  type PayoutRequest,
  type SignedPayout,
  type SignedSweepTx,
  type SignerIdentity,
  SignerRefusal,
  type StoredPayment,
} from '../chain-core/signer-contract';
import { EvmKeySigner } from './evm-key-signer';
import type { EvmSweepSigner } from './evm-sweep-signer';
import type { HotSigner, SignerChain } from './hot-signer';
import { NodeWalletSigner } from './node-wallet-signer';
import { type SignatureRecord, signatureRecords as records } from './signature-records';
import type { SignerNetwork } from './signer-config';

interface NetworkSigner {
  chain: SignerChain;
  signer: HotSigner;
  sweeper?: EvmSweepSigner;
}

/**
 * The signer process's rules, around the hot signers (which check each request against the database themselves):
 * every request runs in one transaction of its own that serialises the requests about the same withdrawal or sweep,
 * and what is signed is recorded there (`signer_signatures`) together with its EVM nonce before the answer leaves. A
 * repeated request gets the recorded bytes back — never a second payment for one withdrawal — and a replacement is
 * signed only for a payment this signer signed, spending the same nonce or inputs.
 */
export class SigningService {
  private readonly logger = new Logger('Signer');
  private readonly networks = new Map<string, NetworkSigner>();
  /** Networks whose hot wallet was found locked and has signed nothing since (said once per episode). */
  private readonly locked = new Set<string>();

  constructor(
    private readonly db: Transactional<SqlExecutor>,
    networks: SignerNetwork[],
  ) {
    for (const network of networks) {
      const chain = chainEndpoint(network);
      if (network.wallet) this.networks.set(network.network, { chain, signer: new NodeWalletSigner({ ...chain, wallet: network.wallet }) });
      if (network.keys) {
        const signer = new EvmKeySigner(chain, network.keys);
        this.networks.set(network.network, { chain, signer, ...(signer.sweeper ? { sweeper: signer.sweeper } : {}) });
      }
    }
  }

  /** The networks signed on, each with the hot address or wallet it pays from. */
  identities(): SignerIdentity[] {
    return [...this.networks.values()].map(({ chain, signer, sweeper }) => ({
      network: chain.network,
      family: chain.family,
      source: signer.source,
      sweeps: Boolean(sweeper),
      maxFee: chain.maxFee,
    }));
  }

  identity(network: string): SignerIdentity {
    const found = this.identities().find((identity) => identity.network === network);
    if (!found) throw new SignerRefusal(`this signer does not sign on ${network}`);
    return found;
  }

  /** The payment of an approved withdrawal: the recorded one when it was signed before, else a new one, recorded. */
  signPayout(network: string, request: PayoutRequest): Promise<SignedPayout> {
    const { signer } = this.network(network);
    return this.refusingLogged(`withdrawal ${request.transactionId} on ${network}`, () =>
      inTransaction(this.db, async (tx) => {
        await records.lockSubject(tx, request.transactionId);
        const recorded = await records.find(tx, 'payout', request.transactionId);
        if (recorded) {
          // Still approved, with exactly this output: then the same bytes again (the API died before it stored them).
          await signer.approved(request, tx);
          if (recorded.network !== network) throw new SignerRefusal(`the withdrawal was signed on ${recorded.network}`);
          this.logger.log(`Withdrawal ${request.transactionId} on ${network} was signed before: the same payment ${recorded.txid} again`);
          return payoutOf(recorded);
        }
        // UTXO: what was signed for an API that died before storing it keeps its inputs (the node forgets its locks).
        if (signer instanceof NodeWalletSigner) await signer.reserveInputs(await records.unclaimed(tx, network));
        const signed = await this.lockedSaidOnce(network, () => signer.sign({ ...request, network }, tx));
        await records.insert(tx, { ...this.baseRecord('payout', request.transactionId, network, signed), ...(await signer.spends(signed.rawTx)) });
        this.logger.log(`Signed withdrawal ${request.transactionId} on ${network}: ${signed.txid}`);
        return signed;
      }),
    );
  }

  /**
   * A fee bump of a payment this signer signed for the withdrawal (the API sends the txid; the bytes are the recorded
   * ones): the same nonce (EVM) or the same inputs (UTXO), recorded once per replaced payment. FeeAboveCeiling, naming
   * the ceiling: no room under it.
   */
  replacePayout(network: string, request: PayoutRequest, payment: StoredPayment): Promise<SignedPayout> {
    const { signer, chain } = this.network(network);
    return this.refusingLogged(`a replacement of ${payment.txid} (withdrawal ${request.transactionId})`, () =>
      inTransaction(this.db, async (tx) => {
        await records.lockSubject(tx, request.transactionId);
        const original = await records.findPayment(tx, request.transactionId, network, payment.txid);
        if (!original) throw new SignerRefusal(`this signer never signed ${payment.txid} for withdrawal ${request.transactionId}`);
        await signer.approved(request, tx);
        const recorded = await records.find(tx, 'replacement', request.transactionId, payment.txid);
        if (recorded) return payoutOf(recorded);
        const replacement = await signer.replace({ ...request, network }, { txid: original.txid, rawTx: original.rawTx, feeBase: original.feeBase }, tx);
        if (!replacement) {
          throw new FeeAboveCeiling(`a higher fee would pass the ceiling of ${chain.maxFee} (${chainEnvPrefix(chain.network)}MAX_FEE)`);
        }
        const spends = await signer.spends(replacement.rawTx);
        const same =
          spends.nonce !== null
            ? spends.nonce === original.nonce && spends.fromAddress === original.fromAddress
            : JSON.stringify(spends.inputs) === JSON.stringify(original.inputs);
        if (!same) throw new SignerRefusal('the replacement does not spend the same nonce or inputs as the payment it replaces');
        await records.insert(tx, { ...this.baseRecord('replacement', request.transactionId, network, replacement), replacesTxid: original.txid, ...spends });
        this.logger.log(`Signed a replacement of ${original.txid} (withdrawal ${request.transactionId} on ${network}): ${replacement.txid}`);
        return replacement;
      }),
    );
  }

  /** The fee the hot wallet would pay for a payment of `amountBase` now (UTXO: funded, never signed nor locked). */
  async feeFor(network: string, amountBase: bigint): Promise<bigint> {
    const { signer } = this.network(network);
    if (!(signer instanceof NodeWalletSigner)) throw new SignerRefusal(`${network} has no node wallet`);
    return signer.feeFor(amountBase);
  }

  /** A sweep's gas top-up from the hot address (undefined: none needed), recorded once per sweep. */
  signTopUp(network: string, sweepId: string): Promise<SignedSweepTx | undefined> {
    const sweeper = this.sweeperOf(network);
    return this.refusingLogged(`the top-up of sweep ${sweepId}`, () =>
      inTransaction(this.db, async (tx) => {
        await records.lockSubject(tx, sweepId);
        const recorded = await records.find(tx, 'top_up', sweepId);
        if (recorded) return sweepOf(recorded);
        const signed = await sweeper.signTopUp(sweepId, tx);
        if (signed) await this.recordSweep(tx, 'top_up', sweepId, network, signed);
        return signed;
      }),
    );
  }

  /** A sweep from a deposit address to the hot address, recorded once per sweep. */
  signSweep(network: string, sweepId: string, minNativeBase: bigint): Promise<SignedSweepTx> {
    const sweeper = this.sweeperOf(network);
    return this.refusingLogged(`sweep ${sweepId}`, () =>
      inTransaction(this.db, async (tx) => {
        await records.lockSubject(tx, sweepId);
        const recorded = await records.find(tx, 'sweep', sweepId);
        if (recorded) return sweepOf(recorded);
        const signed = await sweeper.signSweep(sweepId, minNativeBase, tx);
        await this.recordSweep(tx, 'sweep', sweepId, network, signed);
        return signed;
      }),
    );
  }

  private async recordSweep(tx: SqlExecutor, kind: 'sweep' | 'top_up', sweepId: string, network: string, signed: SignedSweepTx): Promise<void> {
    const { signer } = this.network(network);
    const spends = await signer.spends(signed.rawTx);
    await records.insert(tx, {
      ...this.baseRecord(kind, sweepId, network, { rawTx: signed.rawTx, txid: signed.txid, feeBase: signed.maxFeeBase }),
      ...spends,
      // The sending address is the deposit address for a sweep (the spends of a payment name the hot address).
      fromAddress: kind === 'sweep' ? null : spends.fromAddress,
      amountBase: signed.amountBase,
    });
  }

  private baseRecord(kind: SignatureRecord['kind'], subjectId: string, network: string, signed: SignedPayout): SignatureRecord {
    return {
      kind,
      subjectId,
      network,
      replacesTxid: '',
      fromAddress: null,
      nonce: null,
      inputs: null,
      txid: signed.txid,
      rawTx: signed.rawTx,
      feeBase: signed.feeBase,
      chargedFeeBase: signed.chargedFeeBase ?? null,
      amountBase: null,
    };
  }

  /**
   * A signature of the network's hot wallet; a locked wallet is logged when first met and when it signs again, not on
   * every request (the API retries each waiting payout every run, and alerts the operator once itself).
   */
  private async lockedSaidOnce<T>(network: string, sign: () => Promise<T>): Promise<T> {
    try {
      const signed = await sign();
      if (this.locked.delete(network)) this.logger.log(`The hot wallet on ${network} signs again (unlocked)`);
      return signed;
    } catch (error) {
      if (error instanceof HotWalletLocked && !this.locked.has(network)) {
        this.locked.add(network);
        this.logger.warn(`Signed nothing on ${network}: ${error.message} (its payouts wait until an operator does)`);
      }
      throw error;
    }
  }

  private network(network: string): NetworkSigner {
    const found = this.networks.get(network);
    if (!found) throw new SignerRefusal(`this signer does not sign on ${network}`);
    return found;
  }

  private sweeperOf(network: string): EvmSweepSigner {
    const sweeper = this.network(network).sweeper;
    if (!sweeper) throw new SignerRefusal(`this signer holds no deposit keys on ${network} (no xprv in its key file)`);
    return sweeper;
  }

  private async refusingLogged<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof SignerRefusal) this.logger.warn(`Refused to sign ${what}: ${error.message}`);
      throw error;
    }
  }
}

const payoutOf = (r: SignatureRecord): SignedPayout => ({
  rawTx: r.rawTx,
  txid: r.txid,
  feeBase: r.feeBase,
  ...(r.chargedFeeBase !== null ? { chargedFeeBase: r.chargedFeeBase } : {}),
});

const sweepOf = (r: SignatureRecord): SignedSweepTx => ({ rawTx: r.rawTx, txid: r.txid, amountBase: r.amountBase ?? 0n, maxFeeBase: r.feeBase });
