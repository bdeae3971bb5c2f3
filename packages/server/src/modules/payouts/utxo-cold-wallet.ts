import type { ConnectedChain } from '../chain/chain-connections';
import { baseToFixed } from '../../chain-core/amounts';
import { ChainRpcError, JsonRpcClient, nodeAmountToBase } from '../../chain-core/json-rpc';
import type { ApprovedPayment } from '../../chain-core/approved-payments';
import { ColdPrepareError, ColdReleaseRefusal, type ColdWallet, ColdUploadRefusal, type UnsignedColdPayout } from './cold-wallet';
import type { SignedPayout } from '../../chain-core/signer-contract';

/** Bitcoin Core RPC error codes told apart here. */
const RPC_WALLET_INSUFFICIENT_FUNDS = -6;
const RPC_INVALID_ADDRESS_OR_KEY = -5;

/** A PSBT's magic bytes ("psbt" 0xff), in base64 and in hex. */
const PSBT_BASE64 = /^cHNidP8/;
const PSBT_HEX = /^70736274ff/i;

interface DecodedOutput {
  value: number;
  n: number;
  scriptPubKey: { address?: string; addresses?: string[]; hex?: string };
}

interface DecodedTransaction {
  txid: string;
  vin: Array<{ txid: string; vout: number }>;
  vout: DecodedOutput[];
}

interface DecodedPsbt {
  tx: DecodedTransaction;
  inputs: Array<{ witness_utxo?: { amount: number }; non_witness_utxo?: { vout: DecodedOutput[] } }>;
  fee?: number;
}

const outpoint = (input: { txid: string; vout: number }) => `${input.txid}:${input.vout}`;
const addressOf = (output: DecodedOutput) => output.scriptPubKey.address ?? output.scriptPubKey.addresses?.[0];

/**
 * The UTXO family's cold side: a watch-only wallet of the operator's node (`CHAIN_<NETWORK>_COLD_WALLET`, holding the
 * cold wallet's public descriptors, no private key) funds an unsigned PSBT paying the one approved output, with change
 * back to itself (`walletcreatefundedpsbt`, inputs locked, RBF). The admin signs it offline with the cold wallet
 * (`walletprocesspsbt`, a hardware wallet, …) and uploads it; `accept` finalizes it and lets it through only if it spends
 * exactly the prepared inputs, pays the approved address the approved amount once, sends everything else to our own
 * wallets (the cold one or the hot one), pays no larger fee than prepared, and the node would accept it
 * (`testmempoolaccept`).
 */
export class UtxoColdWallet implements ColdWallet {
  readonly format = 'psbt' as const;
  private readonly watch: JsonRpcClient;

  constructor(
    private readonly chain: ConnectedChain,
    readonly source: string,
    /** The hot wallet of the node, read-only (whether a change output is ours). */
    private readonly hot: () => Promise<JsonRpcClient>,
  ) {
    this.watch = walletClient(chain, source);
  }

  async prepare(approved: ApprovedPayment): Promise<UnsignedColdPayout> {
    const amount = baseToFixed(approved.amountBase, this.chain.nativeDecimals);
    let funded: { psbt: string; fee: number };
    try {
      funded = await this.watch.call('walletcreatefundedpsbt', [
        [],
        [{ [approved.address]: amount }],
        0,
        { includeWatching: true, lockUnspents: true, replaceable: true },
      ]);
    } catch (error) {
      // Before Bitcoin Core 22 (Litecoin Core 0.21) "Insufficient funds" comes as the generic wallet error -4.
      if (error instanceof ChainRpcError && (error.rpcCode === RPC_WALLET_INSUFFICIENT_FUNDS || /insufficient funds/i.test(error.message))) {
        throw new ColdPrepareError(`The cold wallet "${this.source}" cannot pay ${amount} and its fee: ${error.message}`);
      }
      if (error instanceof ChainRpcError && error.rpcCode === RPC_INVALID_ADDRESS_OR_KEY) {
        throw new ColdPrepareError(`The node does not accept the address: ${error.message}`);
      }
      throw error;
    }
    const decoded = await this.watch.call<DecodedPsbt>('decodepsbt', [funded.psbt]);
    // What is handed out already pays exactly the approved output, the rest back to the cold wallet.
    try {
      await this.checkOutputs(decoded.tx.vout, approved);
    } catch (error) {
      await this.unlock(decoded.tx.vin);
      throw error;
    }
    return { unsignedTx: funded.psbt, feeBase: nodeAmountToBase(funded.fee, this.chain.nativeDecimals) };
  }

  describe(): { nonce: null; chainId: null } {
    return { nonce: null, chainId: null };
  }

  async accept(signed: string, prepared: UnsignedColdPayout, approved: ApprovedPayment): Promise<SignedPayout> {
    const hex = await this.finalTransaction(signed.replace(/\s+/g, ''));
    const decoded = await this.watch.call<DecodedTransaction>('decoderawtransaction', [hex]).catch((error: unknown) => {
      if (error instanceof ChainRpcError && error.rpcCode !== undefined) throw new ColdUploadRefusal(`The upload is not a transaction the node can read.`);
      throw error;
    });
    const unsigned = await this.watch.call<DecodedPsbt>('decodepsbt', [prepared.unsignedTx]);
    const preparedInputs = unsigned.tx.vin.map(outpoint).sort();
    const signedInputs = decoded.vin.map(outpoint).sort();
    if (preparedInputs.join() !== signedInputs.join()) {
      throw new ColdUploadRefusal('The signed transaction spends other coins than the prepared one: sign the downloaded PSBT itself.');
    }
    await this.checkOutputs(decoded.vout, approved);
    const inputsTotal = unsigned.inputs.reduce((sum, input, i) => {
      const value = input.witness_utxo?.amount ?? input.non_witness_utxo?.vout[unsigned.tx.vin[i].vout]?.value;
      if (value === undefined) throw new ColdUploadRefusal('The prepared PSBT does not say what its inputs are worth.');
      return sum + nodeAmountToBase(value, this.chain.nativeDecimals);
    }, 0n);
    const outputsTotal = decoded.vout.reduce((sum, output) => sum + nodeAmountToBase(output.value, this.chain.nativeDecimals), 0n);
    const feeBase = inputsTotal - outputsTotal;
    if (feeBase > prepared.feeBase) {
      const coins = (base: bigint) => baseToFixed(base, this.chain.nativeDecimals);
      throw new ColdUploadRefusal(`The signed transaction pays a fee of ${coins(feeBase)}, more than the ${coins(prepared.feeBase)} prepared.`);
    }
    const [verdict] = await this.watch.call<Array<{ allowed: boolean; 'reject-reason'?: string }>>('testmempoolaccept', [[hex]]);
    if (!verdict?.allowed) {
      throw new ColdUploadRefusal(`The node would not accept the signed transaction: ${verdict?.['reject-reason'] ?? 'no reason given'}.`);
    }
    return { rawTx: hex, txid: decoded.txid, feeBase };
  }

  /** Every input still unspent (in the chain and the mempool), so the PSBT was not sent offline: their locks go. */
  async release(prepared: UnsignedColdPayout): Promise<void> {
    const decoded = await this.watch.call<DecodedPsbt>('decodepsbt', [prepared.unsignedTx]);
    for (const input of decoded.tx.vin) {
      const unspent = await this.watch.call<unknown>('gettxout', [input.txid, input.vout, true]);
      if (unspent === null) {
        throw new ColdReleaseRefusal(
          `The coin ${outpoint(input)} of the prepared transaction is spent on the chain: it may have been signed and broadcast offline. Check the cold wallet first.`,
        );
      }
    }
    await this.unlock(decoded.tx.vin);
  }

  async reserveInputs(unsignedTxs: string[]): Promise<void> {
    for (const psbt of unsignedTxs) {
      const decoded = await this.watch.call<DecodedPsbt>('decodepsbt', [psbt]);
      for (const input of decoded.tx.vin) {
        // Already locked, or spent meanwhile: left as it is.
        await this.watch.call('lockunspent', [false, [{ txid: input.txid, vout: input.vout }]]).catch(() => undefined);
      }
    }
  }

  /** The hot wallet never sees a payment from the cold one: its confirmations are read from the watch-only wallet. */
  async status(txid: string): Promise<{ confirmations: number; feeBase?: bigint }> {
    const seen = await this.watch.call<{ confirmations: number; fee?: number }>('gettransaction', [txid, true]);
    return {
      confirmations: seen.confirmations,
      ...(typeof seen.fee === 'number' ? { feeBase: nodeAmountToBase(Math.abs(seen.fee), this.chain.nativeDecimals) } : {}),
    };
  }

  /** The final raw transaction of an upload: a signed PSBT (base64 or hex) finalized by the node, or a raw one (hex). */
  private async finalTransaction(text: string): Promise<string> {
    if (PSBT_BASE64.test(text) || PSBT_HEX.test(text)) {
      const psbt = PSBT_HEX.test(text) ? Buffer.from(text, 'hex').toString('base64') : text;
      let finalized: { hex?: string; complete: boolean };
      try {
        finalized = await this.watch.call('finalizepsbt', [psbt, true]);
      } catch (error) {
        if (error instanceof ChainRpcError && error.rpcCode !== undefined) throw new ColdUploadRefusal('The upload is not a PSBT the node can read.');
        throw error;
      }
      if (!finalized.complete || !finalized.hex) {
        throw new ColdUploadRefusal('The PSBT is not completely signed: sign every input with the cold wallet, then upload it again.');
      }
      return finalized.hex;
    }
    if (/^(?:[0-9a-f]{2})+$/i.test(text)) return text.toLowerCase();
    throw new ColdUploadRefusal('The upload is neither a PSBT (base64 or hex) nor a raw transaction (hex).');
  }

  /** The approved output exactly once; every other output to an address of the cold or the hot wallet. */
  private async checkOutputs(outputs: DecodedOutput[], approved: ApprovedPayment): Promise<void> {
    const coins = (base: bigint) => baseToFixed(base, this.chain.nativeDecimals);
    let payments = 0;
    for (const output of outputs) {
      const address = addressOf(output);
      const value = nodeAmountToBase(output.value, this.chain.nativeDecimals);
      if (address === approved.address && value === approved.amountBase) {
        payments++;
        continue;
      }
      if (!address || !(await this.isOurs(address))) {
        throw new ColdUploadRefusal(
          `The signed transaction pays ${coins(value)} to ${address ?? 'a script without an address'}, which is neither the approved payment (${coins(approved.amountBase)} to ${approved.address}) nor change to our own wallets.`,
        );
      }
    }
    if (payments !== 1) {
      throw new ColdUploadRefusal(
        `The signed transaction pays the approved ${coins(approved.amountBase)} to ${approved.address} ${payments} times, not exactly once.`,
      );
    }
  }

  private async isOurs(address: string): Promise<boolean> {
    for (const wallet of [this.watch, await this.hot().catch(() => undefined)]) {
      if (!wallet) continue;
      const info = await wallet.call<{ ismine?: boolean; iswatchonly?: boolean }>('getaddressinfo', [address]).catch(() => undefined);
      if (info?.ismine || info?.iswatchonly) return true;
    }
    return false;
  }

  private async unlock(inputs: Array<{ txid: string; vout: number }>): Promise<void> {
    await this.watch.call('lockunspent', [true, inputs.map((input) => ({ txid: input.txid, vout: input.vout }))]).catch(() => undefined);
  }
}

/** A client of one wallet of the chain's node (`/wallet/<name>`). */
function walletClient(chain: ConnectedChain, wallet: string): JsonRpcClient {
  const url = new URL(chain.rpcUrl);
  url.pathname = `${url.pathname.replace(/\/$/, '')}/wallet/${encodeURIComponent(wallet)}`;
  return new JsonRpcClient({ rpcUrl: url.toString(), rpcUrlForLogs: `${chain.rpcUrlForLogs} (wallet ${wallet})`, timeoutMs: 60_000 });
}
