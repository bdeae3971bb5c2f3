import { type Hex, keccak256, parseTransaction, recoverTransactionAddress, serializeTransaction, type TransactionSerializableEIP1559 } from 'viem';
import type { Executor } from '../../db/database';
import type { ConnectedChain } from '../chain/chain-connections';
import { ChainRpcError, JsonRpcClient } from '../../chain-core/json-rpc';
import type { ApprovedPayment } from '../../chain-core/approved-payments';
import { ColdPrepareError, ColdReleaseRefusal, type ColdWallet, ColdUploadRefusal, type UnsignedColdPayout } from './cold-wallet';
import { releaseEvmNonce, reserveEvmNonce } from '../../chain-core/evm-nonces';
import { baseToFixed } from '../../chain-core/amounts';
import type { SignedPayout } from '../../chain-core/signer-contract';

/** Tip offered when the node does not suggest one (1 gwei). */
const DEFAULT_TIP_WEI = 1_000_000_000n;

const quantity = (value: unknown, what: string): bigint => {
  if (typeof value !== 'string' || !/^0x[0-9a-f]+$/i.test(value)) throw new ChainRpcError(`The node answered ${what} with something else than a quantity`);
  return BigInt(value);
};

/**
 * The EVM family's cold side: a cold address (`CHAIN_<NETWORK>_COLD_ADDRESS`) whose key never reaches the app. It
 * prepares an unsigned EIP-1559 transfer of exactly the approved amount to the approved address, with the chain id,
 * fees and a nonce reserved for the cold address in `evm_nonces` (in the transaction that keeps it on the payout), and
 * accepts a signed upload only if it is that transaction signed by the cold address: same chain id and nonce, the
 * approved `to` and `value`, no data, and no higher fee than prepared.
 */
export class EvmColdWallet implements ColdWallet {
  readonly format = 'eip1559' as const;
  private readonly rpc: JsonRpcClient;

  constructor(
    private readonly chain: ConnectedChain,
    readonly source: string,
  ) {
    this.rpc = new JsonRpcClient({ rpcUrl: chain.rpcUrl, rpcUrlForLogs: chain.rpcUrlForLogs, timeoutMs: 30_000 });
  }

  async prepare(approved: ApprovedPayment, executor: Executor): Promise<UnsignedColdPayout> {
    const from = this.source;
    const to = approved.address as Hex;
    const value = approved.amountBase;
    const [chainIdHex, pendingHex, latest, balanceHex] = await this.rpc.batch<unknown>([
      { method: 'eth_chainId' },
      { method: 'eth_getTransactionCount', params: [from, 'pending'] },
      { method: 'eth_getBlockByNumber', params: ['latest', false] },
      { method: 'eth_getBalance', params: [from, 'latest'] },
    ]);
    const baseFee = quantity((latest as { baseFeePerGas?: unknown } | null)?.baseFeePerGas ?? '0x0', 'the base fee');
    const maxPriorityFeePerGas = await this.rpc
      .call<string>('eth_maxPriorityFeePerGas')
      .then((v) => quantity(v, 'eth_maxPriorityFeePerGas'))
      .catch(() => DEFAULT_TIP_WEI);
    // Room for the base fee to double while the admin signs it offline.
    const maxFeePerGas = 2n * baseFee + maxPriorityFeePerGas;
    const gas = quantity(
      await this.rpc.call('eth_estimateGas', [{ from, to, value: `0x${value.toString(16)}` }]).catch((error: unknown) => {
        if (error instanceof ChainRpcError && error.rpcCode !== undefined)
          throw new ColdPrepareError(`The node cannot estimate the transfer: ${error.message}`);
        throw error;
      }),
      'eth_estimateGas',
    );
    const balance = quantity(balanceHex, 'eth_getBalance');
    const most = value + gas * maxFeePerGas;
    if (balance < most) {
      const coins = (wei: bigint) => baseToFixed(wei, this.chain.nativeDecimals);
      throw new ColdPrepareError(`The cold address ${from} holds ${coins(balance)}, less than the ${coins(most)} this payment and its gas can cost.`);
    }
    const nonce = await reserveEvmNonce(executor, this.chain.network, from, quantity(pendingHex, 'eth_getTransactionCount'));
    const unsignedTx = serializeTransaction({
      type: 'eip1559',
      chainId: Number(quantity(chainIdHex, 'eth_chainId')),
      nonce: Number(nonce),
      to,
      value,
      gas,
      maxFeePerGas,
      maxPriorityFeePerGas,
    });
    return { unsignedTx, feeBase: gas * maxFeePerGas };
  }

  describe(prepared: UnsignedColdPayout): { nonce: number; chainId: number } {
    const tx = parseTransaction(prepared.unsignedTx as Hex) as TransactionSerializableEIP1559;
    return { nonce: tx.nonce ?? 0, chainId: tx.chainId };
  }

  /**
   * The nonce unused on the chain (the node's pending count has not passed it: nothing with it was broadcast) and the
   * last one reserved for the cold address: given back, so the next prepared transaction takes it and leaves no gap
   * that would hold every later one. A signed copy of the abandoned transaction can then never be mined beside the
   * next one: they share the nonce.
   */
  async release(prepared: UnsignedColdPayout, executor: Executor): Promise<void> {
    const { nonce } = this.describe(prepared);
    const pending = quantity(await this.rpc.call('eth_getTransactionCount', [this.source, 'pending']), 'eth_getTransactionCount');
    if (pending > BigInt(nonce)) {
      throw new ColdReleaseRefusal(
        `The cold address ${this.source} has already sent a transaction with nonce ${nonce}: the prepared one may have been signed and broadcast offline. Check the chain first.`,
      );
    }
    if (!(await releaseEvmNonce(executor, this.chain.network, this.source, BigInt(nonce)))) {
      throw new ColdReleaseRefusal(
        `A later transaction from the cold address was prepared after this one (nonce ${nonce}): abandon that one first, or every later payment from the cold address would wait for nonce ${nonce}.`,
      );
    }
  }

  async accept(signed: string, prepared: UnsignedColdPayout, approved: ApprovedPayment): Promise<SignedPayout> {
    const serialized = signed.trim().toLowerCase() as Hex;
    let tx: ReturnType<typeof parseTransaction>;
    try {
      if (!/^0x02[0-9a-f]+$/.test(serialized)) throw new Error('not EIP-1559');
      tx = parseTransaction(serialized);
    } catch {
      throw new ColdUploadRefusal('The upload is not a signed EIP-1559 transaction (0x02… in hex).');
    }
    if (tx.type !== 'eip1559' || tx.r === undefined || tx.s === undefined) {
      throw new ColdUploadRefusal('The transaction is not signed: sign the downloaded transaction with the cold key, then upload the signed one.');
    }
    const coins = (wei: bigint) => baseToFixed(wei, this.chain.nativeDecimals);
    if (tx.to?.toLowerCase() !== approved.address.toLowerCase() || tx.value !== approved.amountBase || (tx.data && tx.data !== '0x')) {
      throw new ColdUploadRefusal(
        `The signed transaction pays ${coins(tx.value ?? 0n)} to ${tx.to ?? 'no address'}${tx.data && tx.data !== '0x' ? ' with call data' : ''}, not exactly the approved ${coins(approved.amountBase)} to ${approved.address}.`,
      );
    }
    const signer = await recoverTransactionAddress({
      serializedTransaction: serialized as Parameters<typeof recoverTransactionAddress>[0]['serializedTransaction'],
    }).catch(() => undefined);
    if (signer?.toLowerCase() !== this.source.toLowerCase()) {
      throw new ColdUploadRefusal(`The transaction is signed by ${signer ?? 'an unreadable signature'}, not by the cold address ${this.source}.`);
    }
    const expected = this.describe(prepared);
    if (tx.chainId !== expected.chainId || tx.nonce !== expected.nonce) {
      throw new ColdUploadRefusal(
        `The signed transaction has chain id ${tx.chainId} and nonce ${tx.nonce}; the prepared one has chain id ${expected.chainId} and nonce ${expected.nonce}.`,
      );
    }
    const feeBase = (tx.gas ?? 0n) * (tx.maxFeePerGas ?? 0n);
    if (feeBase > prepared.feeBase) {
      throw new ColdUploadRefusal(`The signed transaction may pay a fee of up to ${coins(feeBase)}, more than the ${coins(prepared.feeBase)} prepared.`);
    }
    return { rawTx: serialized, txid: keccak256(serialized), feeBase };
  }
}
