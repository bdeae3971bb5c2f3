import { Logger } from '@nestjs/common';
import { type Hex, keccak256 } from 'viem';
import type { SqlExecutor } from '../../db/sql-executor';
import type { ConnectedChain } from '../chain/chain-connections';
import { evmReceipt, evmSweepFees, NATIVE_TRANSFER_GAS } from '../../chain-core/fees';
import { ChainRpcError, evmQuantity, JsonRpcClient, nodeAmountToBase } from '../../chain-core/json-rpc';
import {
  errorOfRefusal,
  type PayoutRequest,
  payoutFromJson,
  payoutRequestJson,
  type SignedPayout,
  type SignedPayoutJson,
  type SignedSweepJson,
  type SignedSweepTx,
  type SignerIdentity,
  SignerRefusal,
  type SignerRefusalAnswer,
  type StoredPayment,
  sweepFromJson,
} from '../../chain-core/signer-contract';

/**
 * Signs the payment of an approved withdrawal. The code that decides (API, policy, ledger) never holds a key: a signer
 * is the only place that can make a payment, and it checks the request against the database itself.
 */
export interface PayoutSigner {
  sign(request: PayoutRequest, executor: SqlExecutor): Promise<SignedPayout>;
  /** Sends stored bytes; resolves when the node accepted them or already knows them; throws ChainRpcError otherwise. */
  broadcast(rawTx: string): Promise<void>;
  /** Confirmations of a sent payment (0: not in a block of the best chain) and the fee it actually paid, when known. */
  status(txid: string): Promise<{ confirmations: number; feeBase?: bigint }>;
  /**
   * A replacement of a stuck payment that pays a higher fee (RBF: the same inputs; EVM: the same nonce), the same
   * recipient output, within the network's fee ceiling; undefined when the ceiling leaves no room to raise the fee.
   * Checked like `sign`: the withdrawal is still approved and the payment pays its address.
   */
  replace?(request: PayoutRequest, payment: StoredPayment, executor: SqlExecutor): Promise<SignedPayout | undefined>;
}

/** How long the API waits for the signer (a UTXO signature asks the node wallet several times). */
const SIGNER_TIMEOUT_MS = 90_000;

/** Bitcoin Core: "transaction already in block chain" / already in the mempool. */
const RPC_VERIFY_ALREADY_IN_CHAIN = -27;

/** The signer process did not answer (down, restarting, unreachable): nothing is known to be signed; retried. */
export class SignerUnavailable extends ChainRpcError {
  constructor(message: string) {
    super(message);
    this.name = 'SignerUnavailable';
  }
}

/**
 * The API's side of the signer boundary (docs/operate/signer.md): the payout and sweep jobs ask the signer process at
 * `CHAIN_<NETWORK>_SIGNER_URL` (bearer `SIGNER_TOKEN`) for signatures, and read the chain themselves through the node's
 * RPC with the API's own read-only user — broadcasts, receipts, confirmations; no key, no signing method. The signer
 * re-checks every request against the database and answers a refusal with its reason, mapped back here to the same
 * errors an in-process signer threw (SignerRefusal, HotWalletShort, FeeAboveCeiling, SweepDeferred, ChainRpcError).
 */
export class SignerClient implements PayoutSigner {
  private readonly logger = new Logger('Payouts');
  private readonly rpc: JsonRpcClient;
  private known: SignerIdentity | undefined;
  private walletClient: JsonRpcClient | undefined;

  constructor(
    private readonly chain: ConnectedChain & { signerUrl: string },
    private readonly token: string,
  ) {
    this.rpc = new JsonRpcClient({ rpcUrl: chain.rpcUrl, rpcUrlForLogs: chain.rpcUrlForLogs, timeoutMs: 30_000 });
  }

  get family(): 'utxo' | 'evm' {
    return this.chain.family;
  }

  /** The signer's hot address (EVM) or node wallet (UTXO) on this network, asked once (`GET /networks/:network/address`). */
  async identity(): Promise<SignerIdentity> {
    if (!this.known) {
      this.known = await this.call<SignerIdentity>('GET', `/networks/${this.chain.network}/address`);
      // The fee ceiling is the signer's alone (its CHAIN_<NETWORK>_MAX_FEE): said here so the API's log shows it too.
      this.logger.log(
        `The signer at ${this.chain.signerUrl} signs ${this.known.network} payouts from ${this.known.source}${this.known.maxFee ? ` under a fee ceiling of ${this.known.maxFee}` : ''}`,
      );
    }
    if (this.known.network !== this.chain.network || this.known.family !== this.chain.family) {
      const wrong = this.known;
      this.known = undefined;
      throw new SignerRefusal(`the signer at ${this.chain.signerUrl} signs ${wrong.family} payouts on ${wrong.network}, not on ${this.chain.network}`);
    }
    return this.known;
  }

  async sign(request: PayoutRequest): Promise<SignedPayout> {
    const answer = await this.call<{ signed: SignedPayoutJson }>('POST', `/networks/${this.chain.network}/payouts/sign`, payoutRequestJson(request));
    return payoutFromJson(answer.signed);
  }

  async replace(request: PayoutRequest, payment: StoredPayment): Promise<SignedPayout | undefined> {
    const answer = await this.call<{ signed: SignedPayoutJson | null }>('POST', `/networks/${this.chain.network}/payouts/replace`, {
      ...payoutRequestJson(request),
      payment: { txid: payment.txid },
    });
    return answer.signed ? payoutFromJson(answer.signed) : undefined;
  }

  /** UTXO: the fee the hot wallet would pay for a payment of `amountBase` now. */
  async feeFor(amountBase: bigint): Promise<bigint> {
    const answer = await this.call<{ feeBase: string }>('POST', `/networks/${this.chain.network}/fee-estimate`, { amountBase: amountBase.toString() });
    return BigInt(answer.feeBase);
  }

  /** The node's public RPC (estimates, broadcasts, receipts): no key, no wallet. */
  get client(): JsonRpcClient {
    return this.rpc;
  }

  async broadcast(rawTx: string): Promise<void> {
    if (this.chain.family === 'evm') {
      try {
        await this.rpc.call('eth_sendRawTransaction', [rawTx]);
      } catch (error) {
        if (!(error instanceof ChainRpcError)) throw error;
        // Already sent (known to the node, or mined: its nonce is used): the same bytes, nothing more to do.
        const known = await this.rpc.call<unknown>('eth_getTransactionByHash', [keccak256(rawTx as Hex)]).catch(() => null);
        if (!known) throw error;
      }
      return;
    }
    try {
      await this.rpc.call<string>('sendrawtransaction', [rawTx]);
    } catch (error) {
      const known =
        error instanceof ChainRpcError && (error.rpcCode === RPC_VERIFY_ALREADY_IN_CHAIN || /already (in block chain|known)|txn-already/i.test(error.message));
      if (!known) throw error;
    }
  }

  async status(txid: string): Promise<{ confirmations: number; feeBase?: bigint }> {
    if (this.chain.family === 'evm') {
      const [receipt, tipHex] = await this.rpc.batch<unknown>([{ method: 'eth_getTransactionReceipt', params: [txid] }, { method: 'eth_blockNumber' }]);
      if (!receipt) return { confirmations: 0 };
      const r = receipt as { blockNumber?: unknown; gasUsed?: unknown; effectiveGasPrice?: unknown; status?: unknown };
      // Mined but reverted (a token contract refused the transfer): never counted as paid; the error stays on the payout.
      if (r.status === '0x0') throw new ChainRpcError(`the payout transaction ${txid} reverted on chain: the recipient got nothing (an admin must check)`);
      const height = evmQuantity(r.blockNumber, 'the receipt block');
      const tip = evmQuantity(tipHex, 'eth_blockNumber');
      const feeBase = evmQuantity(r.gasUsed, 'gasUsed') * evmQuantity(r.effectiveGasPrice ?? '0x0', 'effectiveGasPrice');
      return { confirmations: Number(tip - height + 1n), feeBase };
    }
    // The hot wallet's own view of its payment (gettransaction: a read-only wallet method the API's RPC user may call).
    const seen = await (await this.hotWallet()).call<{ confirmations: number; fee?: number }>('gettransaction', [txid]);
    return {
      confirmations: seen.confirmations,
      ...(typeof seen.fee === 'number' ? { feeBase: nodeAmountToBase(Math.abs(seen.fee), this.chain.nativeDecimals) } : {}),
    };
  }

  /** UTXO: the hot wallet of the node, read-only (balance, confirmations, its own addresses), by the name the signer gives. */
  async hotWallet(): Promise<JsonRpcClient> {
    if (this.walletClient) return this.walletClient;
    const { source } = await this.identity();
    const url = new URL(this.chain.rpcUrl);
    url.pathname = `${url.pathname.replace(/\/$/, '')}/wallet/${encodeURIComponent(source)}`;
    this.walletClient = new JsonRpcClient({ rpcUrl: url.toString(), rpcUrlForLogs: `${this.chain.rpcUrlForLogs} (wallet ${source})`, timeoutMs: 60_000 });
    return this.walletClient;
  }

  /** EVM sweeps: the hot address sweeps pay to. */
  async hotAddress(): Promise<string> {
    return (await this.identity()).source;
  }

  /** EVM sweeps: a sweep's gas top-up from the hot address (undefined: none needed). */
  async signTopUp(sweepId: string): Promise<SignedSweepTx | undefined> {
    const answer = await this.call<{ signed: SignedSweepJson | null }>('POST', `/networks/${this.chain.network}/sweeps/${sweepId}/top-up`, {});
    return answer.signed ? sweepFromJson(answer.signed) : undefined;
  }

  /** EVM sweeps: the sweep from a deposit address to the hot address. */
  async signSweep(sweepId: string, minNativeBase: bigint): Promise<SignedSweepTx> {
    const answer = await this.call<{ signed: SignedSweepJson }>('POST', `/networks/${this.chain.network}/sweeps/${sweepId}/sign`, {
      minNativeBase: minNativeBase.toString(),
    });
    return sweepFromJson(answer.signed);
  }

  /** What the gas of a native sweep may cost at most now (read from the node, as the signer will). */
  async nativeSweepGasCost(): Promise<bigint> {
    return NATIVE_TRANSFER_GAS * (await evmSweepFees(this.rpc)).maxFeePerGas;
  }

  /** A sweep transaction's receipt (undefined until it is in a block). */
  receipt(txid: string): ReturnType<typeof evmReceipt> {
    return evmReceipt(this.rpc, txid);
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.chain.signerUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(SIGNER_TIMEOUT_MS),
      });
    } catch (error) {
      throw new SignerUnavailable(`The signer at ${this.chain.signerUrl} did not answer: ${(error as Error).message}`);
    }
    const answer = (await response.json().catch(() => ({}))) as Partial<SignerRefusalAnswer>;
    if (response.ok) return answer as T;
    const reason = answer.reason ?? `HTTP ${response.status}`;
    // A bad token or request is this API's configuration or code: said plainly, retried like an outage.
    throw errorOfRefusal(answer, reason) ?? new SignerUnavailable(`The signer at ${this.chain.signerUrl} answered ${response.status}: ${reason}`);
  }
}
