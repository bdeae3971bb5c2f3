import type { SqlExecutor } from '../db/sql-executor';
import { baseToFixed } from '../chain-core/amounts';
import { type ApprovedPayment, checkRecipientAmount, readApprovedPayment } from '../chain-core/approved-payments';
import { FeeAboveCeiling, maxFeeBase, utxoReplacementFeeRate } from '../chain-core/fees';
import { ChainRpcError, JsonRpcClient, nodeAmountToBase } from '../chain-core/json-rpc';
import { HotWalletLocked, HotWalletShort, type PayoutRequest, type SignedPayout, SignerRefusal, type StoredPayment } from '../chain-core/signer-contract';
import type { HotSigner, SignerChain } from './hot-signer';
import { chainEnvPrefix } from '../config/chain-settings';

/** Bitcoin Core RPC error codes the signer tells apart. */
const RPC_WALLET_INSUFFICIENT_FUNDS = -6;
const RPC_INVALID_ADDRESS_OR_KEY = -5;
const RPC_WALLET_ERROR = -4;
const RPC_WALLET_UNLOCK_NEEDED = -13;

/**
 * The UTXO family's signer: the hot wallet in the operator's own node (`CHAIN_<NETWORK>_WALLET`) holds the keys; this
 * process only asks it to fund and sign (`walletcreatefundedpsbt` with the one approved output, the fee subtracted
 * from it, `walletprocesspsbt`, `finalizepsbt`). It signs only a withdrawal the database shows approved, not voided, on
 * its network, whose request names exactly the approved address and amount — and only a transaction whose outputs are
 * that payment (the amount less the network fee, within the ceiling) and change back to the wallet itself. Anything else is refused and logged with the reason.
 */
export class NodeWalletSigner implements HotSigner {
  private readonly wallet: JsonRpcClient;
  /** One address of the wallet the fee estimates pay to (asked once, so estimates use up no addresses). */
  private feeProbeAddress: string | undefined;

  constructor(private readonly chain: SignerChain & { wallet: string }) {
    const url = new URL(chain.rpcUrl);
    url.pathname = `${url.pathname.replace(/\/$/, '')}/wallet/${encodeURIComponent(chain.wallet)}`;
    this.wallet = new JsonRpcClient({ rpcUrl: url.toString(), rpcUrlForLogs: `${chain.rpcUrlForLogs} (wallet ${chain.wallet})`, timeoutMs: 60_000 });
  }

  /** A refusal is logged by SigningService (once, for every signer). */
  async sign(request: PayoutRequest, executor: SqlExecutor): Promise<SignedPayout> {
    const approved = await this.approvedPayment(request, executor);
    return this.signPayment(request, approved);
  }

  private approvedPayment(request: PayoutRequest, executor: SqlExecutor): Promise<ApprovedPayment> {
    return readApprovedPayment(request, this.chain, executor);
  }

  /** The node wallet payouts are paid from. */
  get source(): string {
    return this.chain.wallet;
  }

  approved(request: PayoutRequest, executor: SqlExecutor): Promise<ApprovedPayment> {
    return this.approvedPayment(request, executor);
  }

  async spends(rawTx: string): Promise<{ fromAddress: null; nonce: null; inputs: string[] }> {
    const decoded = await this.wallet.call<DecodedTransaction>('decoderawtransaction', [rawTx]);
    return { fromAddress: null, nonce: null, inputs: decoded.vin.map((input) => `${input.txid}:${input.vout}`).sort() };
  }

  private async signPayment(request: PayoutRequest, approved: ApprovedPayment): Promise<SignedPayout> {
    const amount = baseToFixed(approved.amountBase, this.chain.nativeDecimals);
    let funded: { psbt: string; fee: number | string };
    try {
      // The one approved output; the wallet adds its inputs (locked, so a payout signed next never spends them too) and
      // its change, and signals replaceability (RBF).
      // The customer pays the network fee: it is subtracted from the payment output — unless the withdrawal's fee is
      // fixed (the platform pays it: the wallet adds it on top, out of its own coins).
      funded = await this.wallet.call('walletcreatefundedpsbt', [
        [],
        [{ [approved.address]: amount }],
        0,
        { replaceable: true, lockUnspents: true, ...(approved.platformPaysFee ? {} : { subtractFeeFromOutputs: [0] }) },
      ]);
    } catch (error) {
      if (error instanceof ChainRpcError && error.rpcCode === RPC_WALLET_ERROR && /too small/i.test(error.message)) {
        throw new SignerRefusal(`the amount ${amount} does not cover the network fee: ${error.message}`);
      }
      // Litecoin Core 0.21 (like Bitcoin Core before 22) answers "Insufficient funds" with the generic wallet error -4.
      if (error instanceof ChainRpcError && (error.rpcCode === RPC_WALLET_INSUFFICIENT_FUNDS || /insufficient funds/i.test(error.message))) {
        throw new HotWalletShort(`the hot wallet cannot pay ${amount} and its fee: ${error.message}`);
      }
      if (error instanceof ChainRpcError && error.rpcCode === RPC_INVALID_ADDRESS_OR_KEY) {
        throw new SignerRefusal(`the node does not accept the address: ${error.message}`);
      }
      throw error;
    }
    try {
      const feeBase = nodeAmountToBase(String(funded.fee), this.chain.nativeDecimals);
      if (feeBase > maxFeeBase(this.chain)) {
        throw new FeeAboveCeiling(
          `the network fee ${baseToFixed(feeBase, this.chain.nativeDecimals)} is above the ceiling of ${this.chain.maxFee} (${chainEnvPrefix(this.chain.network)}MAX_FEE)`,
        );
      }
      const { hex, decoded } = await this.signPsbt(funded.psbt);
      const chargedFeeBase = approved.platformPaysFee ? 0n : feeBase;
      await this.checkOutputs(decoded, {
        address: approved.address,
        amountBase: approved.amountBase - chargedFeeBase,
        platformPaysFee: approved.platformPaysFee,
      });
      return { rawTx: hex, txid: decoded.txid, feeBase, chargedFeeBase };
    } catch (error) {
      // Nothing leaves the signer: the coins the funding locked are the wallet's to spend again (the node would keep
      // them locked until it restarts, and the next payouts could not use them).
      await this.unlockInputs(funded.psbt);
      throw error;
    }
  }

  /** Signs a funded PSBT with the hot wallet's keys and decodes the final transaction. */
  private async signPsbt(psbt: string): Promise<{ hex: string; decoded: DecodedTransaction }> {
    const processed = await this.wallet.call<{ psbt: string; complete: boolean }>('walletprocesspsbt', [psbt, true, 'ALL']).catch((error: unknown) => {
      // Nodes that refuse outright rather than sign nothing (Bitcoin Core's "Please enter the wallet passphrase …").
      if (error instanceof ChainRpcError && error.rpcCode === RPC_WALLET_UNLOCK_NEEDED) throw this.lockedError();
      throw error;
    });
    if (!processed.complete) {
      // An encrypted wallet that is locked signs nothing (Litecoin Core 0.21 answers complete: false, no error): the
      // operator unlocks it, and the payout waits meanwhile. Anything else it cannot sign is not its key: refused.
      if (await this.isLocked()) throw this.lockedError();
      throw new SignerRefusal('the hot wallet could not sign every input (is it watch-only?)');
    }
    const finalized = await this.wallet.call<{ hex?: string; complete: boolean }>('finalizepsbt', [processed.psbt, true]);
    if (!finalized.complete || !finalized.hex) throw new SignerRefusal('the signed transaction could not be finalized');
    return { hex: finalized.hex, decoded: await this.wallet.call<DecodedTransaction>('decoderawtransaction', [finalized.hex]) };
  }

  private lockedError(): HotWalletLocked {
    return new HotWalletLocked(`the hot wallet "${this.chain.wallet}" is locked: unlock it with walletpassphrase`);
  }

  /** Whether the wallet is encrypted and locked (`getwalletinfo`: `unlocked_until` is 0; absent when not encrypted). */
  private async isLocked(): Promise<boolean> {
    const info = await this.wallet.call<{ unlocked_until?: number }>('getwalletinfo');
    return info?.unlocked_until === 0;
  }

  /** Releases the inputs a funded PSBT locked (a payment that is not signed after all). */
  private async unlockInputs(psbt: string): Promise<void> {
    const decoded = await this.wallet.call<{ tx: { vin: Array<{ txid: string; vout: number }> } }>('decodepsbt', [psbt]).catch(() => undefined);
    const inputs = decoded?.tx.vin.map((input) => ({ txid: input.txid, vout: input.vout })) ?? [];
    if (inputs.length) await this.wallet.call('lockunspent', [true, inputs]).catch(() => undefined);
  }

  /**
   * A replacement of a stuck payment by the node's `psbtbumpfee` (RBF), signed by the hot wallet, never broadcast here.
   * The withdrawal is checked as for `sign`; the replacement must spend exactly the inputs of the payment it replaces
   * (so at most one of them is ever mined), pay the recipient the same output, everything else back to the wallet, and
   * a fee within the ceiling. The raise is taken from the change, never from the recipient.
   */
  async replace(request: PayoutRequest, payment: StoredPayment, executor: SqlExecutor): Promise<SignedPayout | undefined> {
    const approved = await this.approvedPayment(request, executor);
    return this.replacePayment(approved, payment);
  }

  private async replacePayment(approved: ApprovedPayment, payment: StoredPayment): Promise<SignedPayout | undefined> {
    const decimals = this.chain.nativeDecimals;
    const ceiling = maxFeeBase(this.chain);
    const original = await this.wallet.call<DecodedTransaction>('decoderawtransaction', [payment.rawTx]);
    if (original.txid !== payment.txid) throw new SignerRefusal('the stored bytes are not the stored transaction');
    const paid = this.paymentOutput(original, approved.address);
    checkRecipientAmount(paid, approved, ceiling);
    const [network, estimate] = await Promise.all([
      this.wallet.call<{ incrementalfee?: number }>('getnetworkinfo'),
      this.wallet.call<{ feerate?: number }>('estimatesmartfee', [2]).catch(() => ({}) as { feerate?: number }),
    ]);
    const rate = utxoReplacementFeeRate({ feeBase: payment.feeBase, vsize: original.vsize }, ceiling, {
      incrementalPerKvB: nodeAmountToBase(network.incrementalfee ?? 0.00001, decimals),
      ...(typeof estimate.feerate === 'number' ? { estimatePerKvB: nodeAmountToBase(estimate.feerate, decimals) } : {}),
    });
    if (rate === undefined) return undefined;
    const bumped = await this.wallet.call<{ psbt: string; fee: number }>('psbtbumpfee', [payment.txid, { fee_rate: rate }]);
    const feeBase = nodeAmountToBase(bumped.fee, decimals);
    if (feeBase > ceiling) return undefined;
    const { hex, decoded } = await this.signPsbt(bumped.psbt);
    const spends = (tx: DecodedTransaction) => tx.vin.map((input) => `${input.txid}:${input.vout}`).sort();
    if (JSON.stringify(spends(decoded)) !== JSON.stringify(spends(original))) {
      throw new SignerRefusal('the replacement does not spend exactly the inputs of the payment it replaces');
    }
    await this.checkOutputs(decoded, { ...approved, amountBase: paid });
    return { rawTx: hex, txid: decoded.txid, feeBase };
  }

  /** The value a transaction pays `address` (0 when none). */
  private paymentOutput(decoded: DecodedTransaction, address: string): bigint {
    return decoded.vout
      .filter((out) => (out.scriptPubKey.address ?? out.scriptPubKey.addresses?.[0]) === address)
      .reduce((sum, out) => sum + nodeAmountToBase(out.value, this.chain.nativeDecimals), 0n);
  }

  /**
   * The fee the hot wallet would pay for a payment of `amountBase` now: funded to one of its own addresses, never
   * signed, inputs not locked.
   */
  async feeFor(amountBase: bigint): Promise<bigint> {
    this.feeProbeAddress ??= await this.wallet.call<string>('getrawchangeaddress', []);
    const amount = baseToFixed(amountBase, this.chain.nativeDecimals);
    const fund = (options: Record<string, unknown>) =>
      this.wallet.call<{ fee: number }>('walletcreatefundedpsbt', [[], [{ [this.feeProbeAddress!]: amount }], 0, { lockUnspents: false, ...options }]);
    // Paid out of the amount, as payouts are; an amount the fee would take entirely cannot be funded so: the same
    // payment with the fee on top has the same size, so the same fee (what the Send step refuses it for).
    const funded = await fund({ subtractFeeFromOutputs: [0] }).catch(() => fund({}));
    return nodeAmountToBase(funded.fee, this.chain.nativeDecimals);
  }

  /**
   * Locks the inputs of signed payments not yet broadcast, so the wallet funds no other payout with them (the node
   * forgets its locks when it restarts). An input already locked, or already spent, is left as it is.
   */
  async reserveInputs(rawTxs: string[]): Promise<void> {
    for (const rawTx of rawTxs) {
      const decoded = await this.wallet.call<{ vin: Array<{ txid: string; vout: number }> }>('decoderawtransaction', [rawTx]);
      for (const input of decoded.vin) {
        await this.wallet.call('lockunspent', [false, [{ txid: input.txid, vout: input.vout }]]).catch(() => undefined);
      }
    }
  }

  /** Exactly one output pays the approved address the approved amount; every other one is change to the wallet itself. */
  private async checkOutputs(decoded: DecodedTransaction, approved: ApprovedPayment): Promise<void> {
    let payments = 0;
    for (const out of decoded.vout) {
      const address = out.scriptPubKey.address ?? out.scriptPubKey.addresses?.[0];
      const value = nodeAmountToBase(out.value, this.chain.nativeDecimals);
      if (address === approved.address && value === approved.amountBase) {
        payments++;
        continue;
      }
      const info = address ? await this.wallet.call<{ ismine?: boolean }>('getaddressinfo', [address]) : undefined;
      if (!info?.ismine)
        throw new SignerRefusal(`the transaction would pay ${value} to ${address ?? 'a script'}, which is neither the approved output nor change`);
    }
    if (payments !== 1) throw new SignerRefusal(`the transaction pays the approved output ${payments} times, not once`);
  }
}

interface DecodedTransaction {
  txid: string;
  vsize: number;
  vin: Array<{ txid: string; vout: number }>;
  vout: Array<{ value: number; n: number; scriptPubKey: { address?: string; addresses?: string[] } }>;
}
