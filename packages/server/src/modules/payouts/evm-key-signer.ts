import { Logger } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { type Hex, keccak256, parseTransaction } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { Executor } from '../../db/database';
import type { ConnectedChain } from '../chain/chain-connections';
import { ChainRpcError, JsonRpcClient } from '../chain/json-rpc';
import { reserveEvmNonce } from './evm-nonces';
import { HotWalletShort, type PayoutRequest, type PayoutSigner, readApprovedPayment, type SignedPayout, SignerRefusal } from './node-wallet-signer';

/** Tip offered when the node does not suggest one (1 gwei). */
const DEFAULT_TIP_WEI = 1_000_000_000n;

const hexToBigInt = (value: unknown, what: string): bigint => {
  if (typeof value !== 'string' || !/^0x[0-9a-f]+$/i.test(value)) throw new ChainRpcError(`The node answered ${what} with something else than a quantity`);
  return BigInt(value);
};

/**
 * The EVM family's signer: a local key read from `CHAIN_<NETWORK>_KEY_FILE` (outside the database, readable only by
 * the process that signs) signs EIP-1559 transfers of the native coin from its hot address. Like the node-wallet
 * signer it re-reads the withdrawal and signs only its approved payment (the transaction's `to`, `value` and empty
 * `data` are checked after signing). Nonces are reserved per sending address in the database (`evm_nonces`), in the
 * transaction that stores the signed payment, so two payouts never share one and a restart never reuses one.
 */
export class EvmKeySigner implements PayoutSigner {
  private readonly logger = new Logger('PayoutSigner');
  private readonly rpc: JsonRpcClient;
  private readonly account: PrivateKeyAccount;

  constructor(
    private readonly chain: ConnectedChain,
    keyFile: string,
  ) {
    const key = readFileSync(keyFile, 'utf8').trim();
    this.account = privateKeyToAccount((key.startsWith('0x') ? key : `0x${key}`) as Hex);
    this.rpc = new JsonRpcClient({ rpcUrl: chain.rpcUrl, rpcUrlForLogs: chain.rpcUrlForLogs, timeoutMs: 30_000 });
  }

  /** The hot address payouts are sent from. */
  get address(): string {
    return this.account.address;
  }

  async sign(request: PayoutRequest, executor: Executor): Promise<SignedPayout> {
    try {
      const approved = await readApprovedPayment(request, this.chain, executor, (a, b) => a.toLowerCase() === b.toLowerCase());
      return await this.signTransfer(approved, executor);
    } catch (error) {
      if (error instanceof SignerRefusal || error instanceof HotWalletShort) {
        this.logger.warn(`Refused to sign withdrawal ${request.transactionId} on ${request.network}: ${error.message}`);
      }
      throw error;
    }
  }

  private async signTransfer(approved: { address: string; amountBase: bigint }, executor: Executor): Promise<SignedPayout> {
    const from = this.account.address;
    const to = approved.address as Hex;
    const value = approved.amountBase;
    const [chainIdHex, pendingHex, latest, balanceHex] = await this.rpc.batch<unknown>([
      { method: 'eth_chainId' },
      { method: 'eth_getTransactionCount', params: [from, 'pending'] },
      { method: 'eth_getBlockByNumber', params: ['latest', false] },
      { method: 'eth_getBalance', params: [from, 'latest'] },
    ]);
    const baseFee = hexToBigInt((latest as { baseFeePerGas?: unknown } | null)?.baseFeePerGas ?? '0x0', 'the base fee');
    const tip = await this.rpc
      .call<string>('eth_maxPriorityFeePerGas')
      .then((v) => hexToBigInt(v, 'eth_maxPriorityFeePerGas'))
      .catch(() => DEFAULT_TIP_WEI);
    const maxPriorityFeePerGas = tip;
    // Room for the base fee to double before the transaction is mined.
    const maxFeePerGas = 2n * baseFee + tip;
    const gas = hexToBigInt(
      await this.rpc.call('eth_estimateGas', [{ from, to, value: `0x${value.toString(16)}` }]).catch((error: unknown) => {
        if (error instanceof ChainRpcError && error.rpcCode !== undefined) throw new SignerRefusal(`the node cannot estimate the transfer: ${error.message}`);
        throw error;
      }),
      'eth_estimateGas',
    );
    const balance = hexToBigInt(balanceHex, 'eth_getBalance');
    if (balance < value + gas * maxFeePerGas) throw new HotWalletShort(`the hot address ${from} holds ${balance} wei, less than ${value} plus gas`);
    const nonce = await this.reserveNonce(from, hexToBigInt(pendingHex, 'eth_getTransactionCount'), executor);
    const serialized = await this.account.signTransaction({
      type: 'eip1559',
      chainId: Number(hexToBigInt(chainIdHex, 'eth_chainId')),
      nonce: Number(nonce),
      to,
      value,
      gas,
      maxFeePerGas,
      maxPriorityFeePerGas,
    });
    const parsed = parseTransaction(serialized);
    if (parsed.to?.toLowerCase() !== approved.address.toLowerCase() || parsed.value !== approved.amountBase || (parsed.data && parsed.data !== '0x')) {
      throw new SignerRefusal('the signed transaction does not pay exactly the approved output');
    }
    // The fee at most (gas × max fee); the one actually paid is read from the receipt.
    return { rawTx: serialized, txid: keccak256(serialized), feeBase: gas * maxFeePerGas };
  }

  /** The next nonce of `address`, reserved in the caller's transaction (`evm_nonces`). */
  private reserveNonce(address: string, pending: bigint, executor: Executor): Promise<bigint> {
    return reserveEvmNonce(this.chain.network, address, pending, executor);
  }

  async broadcast(rawTx: string): Promise<void> {
    try {
      await this.rpc.call('eth_sendRawTransaction', [rawTx]);
    } catch (error) {
      if (!(error instanceof ChainRpcError)) throw error;
      // Already sent (known to the node, or mined: its nonce is used): the same bytes, nothing more to do.
      const txid = keccak256(rawTx as Hex);
      const known = await this.rpc.call<unknown>('eth_getTransactionByHash', [txid]).catch(() => null);
      if (!known) throw error;
    }
  }

  async status(txid: string): Promise<{ confirmations: number; feeBase?: bigint }> {
    const [receipt, tipHex] = await this.rpc.batch<unknown>([{ method: 'eth_getTransactionReceipt', params: [txid] }, { method: 'eth_blockNumber' }]);
    if (!receipt) return { confirmations: 0 };
    const r = receipt as { blockNumber?: unknown; gasUsed?: unknown; effectiveGasPrice?: unknown; status?: unknown };
    const height = hexToBigInt(r.blockNumber, 'the receipt block');
    const tip = hexToBigInt(tipHex, 'eth_blockNumber');
    const feeBase = hexToBigInt(r.gasUsed, 'gasUsed') * hexToBigInt(r.effectiveGasPrice ?? '0x0', 'effectiveGasPrice');
    return { confirmations: Number(tip - height + 1n), feeBase };
  }
}
