import { Logger } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { type Hex, keccak256, parseTransaction } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { Executor } from '../../db/database';
import type { ConnectedChain } from '../chain/chain-connections';
import { ChainRpcError, JsonRpcClient } from '../chain/json-rpc';
import { parseEvmKeyFile } from '../../config/evm-key-file';
import { type ApprovedEvmPayment, paysExactly, readApprovedEvmPayment, tokenBalance, transferCalldata } from './erc20-transfer';
import { reserveEvmNonce } from './evm-nonces';
import { EvmSweepSigner } from './evm-sweep-signer';
import { HotWalletShort, type PayoutRequest, type PayoutSigner, type SignedPayout, SignerRefusal } from './node-wallet-signer';

/** Tip offered when the node does not suggest one (1 gwei). */
const DEFAULT_TIP_WEI = 1_000_000_000n;

const hexToBigInt = (value: unknown, what: string): bigint => {
  if (typeof value !== 'string' || !/^0x[0-9a-f]+$/i.test(value)) throw new ChainRpcError(`The node answered ${what} with something else than a quantity`);
  return BigInt(value);
};

/**
 * The EVM family's signer: a local key read from `CHAIN_<NETWORK>_KEY_FILE` (outside the database, readable only by
 * the process that signs) signs EIP-1559 payments from its hot address: the native coin, or an ERC-20 token by its
 * contract's `transfer(to, amount)`. Like the node-wallet signer it re-reads the withdrawal and signs only its approved
 * payment (the transaction's `to`, `value` and `data` — the transfer's calldata decoded — are checked after signing).
 * With the account's xprv in the key file it also holds the sweep signer (`sweeper`). Nonces are reserved per sending
 * address in the database (`evm_nonces`), in the transaction that stores the signed payment, so two payouts never share
 * one and a restart never reuses one.
 */
export class EvmKeySigner implements PayoutSigner {
  private readonly logger = new Logger('PayoutSigner');
  private readonly rpc: JsonRpcClient;
  private readonly account: PrivateKeyAccount;
  /** Signs the sweeps of the deposit addresses (the key file holds the account's xprv); undefined: no sweeps. */
  readonly sweeper: EvmSweepSigner | undefined;

  constructor(
    private readonly chain: ConnectedChain,
    keyFile: string,
  ) {
    const keys = parseEvmKeyFile(readFileSync(keyFile, 'utf8'));
    this.account = privateKeyToAccount(keys.hotKey);
    this.rpc = new JsonRpcClient({ rpcUrl: chain.rpcUrl, rpcUrlForLogs: chain.rpcUrlForLogs, timeoutMs: 30_000 });
    this.sweeper = keys.depositKey ? new EvmSweepSigner(chain, this.account, keys.depositKey, this.rpc) : undefined;
  }

  /** The hot address payouts are sent from. */
  get address(): string {
    return this.account.address;
  }

  async sign(request: PayoutRequest, executor: Executor): Promise<SignedPayout> {
    try {
      const approved = await readApprovedEvmPayment(request, this.chain, executor, this.rpc);
      return await this.signTransfer(approved, executor);
    } catch (error) {
      if (error instanceof SignerRefusal || error instanceof HotWalletShort) {
        this.logger.warn(`Refused to sign withdrawal ${request.transactionId} on ${request.network}: ${error.message}`);
      }
      throw error;
    }
  }

  private async signTransfer(approved: ApprovedEvmPayment, executor: Executor): Promise<SignedPayout> {
    const from = this.account.address;
    // A token is paid by its contract's transfer(to, amount), with no value.
    const to = (approved.contract ?? approved.address) as Hex;
    const value = approved.contract ? 0n : approved.amountBase;
    const data = approved.contract ? transferCalldata(approved.address, approved.amountBase) : undefined;
    if (approved.contract) {
      const held = await tokenBalance(this.rpc, approved.contract, from);
      if (held < approved.amountBase) throw new HotWalletShort(`the hot address ${from} holds ${held} of the token, less than ${approved.amountBase}`);
    }
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
      await this.rpc.call('eth_estimateGas', [{ from, to, value: `0x${value.toString(16)}`, ...(data ? { data } : {}) }]).catch((error: unknown) => {
        if (error instanceof ChainRpcError && error.rpcCode !== undefined) throw new SignerRefusal(`the node cannot estimate the transfer: ${error.message}`);
        throw error;
      }),
      'eth_estimateGas',
    );
    const balance = hexToBigInt(balanceHex, 'eth_getBalance');
    if (balance < value + gas * maxFeePerGas) throw new HotWalletShort(`the hot address ${from} holds ${balance} wei, less than ${value} plus gas`);
    const nonce = await reserveEvmNonce(executor, this.chain.network, from, hexToBigInt(pendingHex, 'eth_getTransactionCount'));
    const serialized = await this.account.signTransaction({
      type: 'eip1559',
      chainId: Number(hexToBigInt(chainIdHex, 'eth_chainId')),
      nonce: Number(nonce),
      to,
      value,
      ...(data ? { data } : {}),
      gas,
      maxFeePerGas,
      maxPriorityFeePerGas,
    });
    if (!paysExactly(parseTransaction(serialized), approved)) throw new SignerRefusal('the signed transaction does not pay exactly the approved output');
    // The fee at most (gas × max fee); the one actually paid is read from the receipt.
    return { rawTx: serialized, txid: keccak256(serialized), feeBase: gas * maxFeePerGas };
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
    // Mined but reverted (a token contract refused the transfer): never counted as paid; the error stays on the payout.
    if (r.status === '0x0') throw new ChainRpcError(`the payout transaction ${txid} reverted on chain: the recipient got nothing (an admin must check)`);
    const height = hexToBigInt(r.blockNumber, 'the receipt block');
    const tip = hexToBigInt(tipHex, 'eth_blockNumber');
    const feeBase = hexToBigInt(r.gasUsed, 'gasUsed') * hexToBigInt(r.effectiveGasPrice ?? '0x0', 'effectiveGasPrice');
    return { confirmations: Number(tip - height + 1n), feeBase };
  }
}
