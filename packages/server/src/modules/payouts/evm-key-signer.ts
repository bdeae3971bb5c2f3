import { Logger } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { type Hex, keccak256, parseTransaction } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { Executor } from '../../db/database';
import type { ConnectedChain } from '../chain/chain-connections';
import { ChainRpcError, JsonRpcClient } from '../chain/json-rpc';
import {
  checkRecipientAmount,
  HotWalletShort,
  type PayoutRequest,
  type PayoutSigner,
  readApprovedPayment,
  type SignedPayout,
  SignerRefusal,
  type StoredPayment,
} from './node-wallet-signer';
import { evmFeeQuote, evmPaymentFees, evmQuantity as hexToBigInt, evmQuotedFee, evmReplacementFees, maxFeeBase } from './payout-fees';

/**
 * The EVM family's signer: a local key read from `CHAIN_<NETWORK>_KEY_FILE` (outside the database, readable only by
 * the process that signs) signs EIP-1559 transfers of the native coin from its hot address. Like the node-wallet
 * signer it re-reads the withdrawal and signs only its approved payment: the approved address, the approved amount less
 * the network fee at the quote (gas × (base fee + tip), which the customer pays), no data — checked after signing. Nonces are reserved per sending address in the database (`evm_nonces`), in the
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
    const [chainIdHex, pendingHex, balanceHex] = await this.rpc.batch<unknown>([
      { method: 'eth_chainId' },
      { method: 'eth_getTransactionCount', params: [from, 'pending'] },
      { method: 'eth_getBalance', params: [from, 'latest'] },
    ]);
    const quote = await evmFeeQuote(this.rpc);
    const gas = hexToBigInt(
      await this.rpc.call('eth_estimateGas', [{ from, to, value: `0x${approved.amountBase.toString(16)}` }]).catch((error: unknown) => {
        if (error instanceof ChainRpcError && error.rpcCode !== undefined) throw new SignerRefusal(`the node cannot estimate the transfer: ${error.message}`);
        throw error;
      }),
      'eth_estimateGas',
    );
    const { maxFeePerGas, maxPriorityFeePerGas } = evmPaymentFees(quote, gas, maxFeeBase(this.chain));
    // The customer pays the network fee at the quote: the recipient gets the amount less it.
    const chargedFeeBase = evmQuotedFee(quote, gas);
    const value = approved.amountBase - chargedFeeBase;
    if (value <= 0n) throw new SignerRefusal(`the amount ${approved.amountBase} wei does not cover the network fee (${chargedFeeBase} wei)`);
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
    if (parsed.to?.toLowerCase() !== approved.address.toLowerCase() || parsed.value !== value || (parsed.data && parsed.data !== '0x')) {
      throw new SignerRefusal('the signed transaction does not pay exactly the approved output');
    }
    // The fee at most (gas × max fee); the one actually paid is read from the receipt.
    return { rawTx: serialized, txid: keccak256(serialized), feeBase: gas * maxFeePerGas, chargedFeeBase };
  }

  /**
   * A same-nonce replacement of a stuck payment: the same recipient, value and gas, tip and fee cap each at least 10 %
   * higher (and what the quote asks now), within the ceiling; undefined when the ceiling leaves no room. The withdrawal
   * is checked as for `sign`, and the payment replaced must pay its approved address (less a fee within the ceiling).
   */
  async replace(request: PayoutRequest, payment: StoredPayment, executor: Executor): Promise<SignedPayout | undefined> {
    try {
      const approved = await readApprovedPayment(request, this.chain, executor, (a, b) => a.toLowerCase() === b.toLowerCase());
      return await this.replaceTransfer(approved, payment);
    } catch (error) {
      if (error instanceof SignerRefusal)
        this.logger.warn(`Refused to replace the payment ${payment.txid} of withdrawal ${request.transactionId}: ${error.message}`);
      throw error;
    }
  }

  private async replaceTransfer(approved: { address: string; amountBase: bigint }, payment: StoredPayment): Promise<SignedPayout | undefined> {
    const ceiling = maxFeeBase(this.chain);
    if (keccak256(payment.rawTx as Hex) !== payment.txid) throw new SignerRefusal('the stored bytes are not the stored transaction');
    const old = parseTransaction(payment.rawTx as Hex);
    if (old.type !== 'eip1559' || old.nonce === undefined || !old.gas || old.chainId === undefined)
      throw new SignerRefusal('only an EIP-1559 payment is replaced');
    if (old.to?.toLowerCase() !== approved.address.toLowerCase() || (old.data && old.data !== '0x')) {
      throw new SignerRefusal('the payment replaced does not pay the approved address');
    }
    checkRecipientAmount(old.value ?? 0n, approved, ceiling);
    const fees = evmReplacementFees(
      { maxFeePerGas: old.maxFeePerGas ?? 0n, maxPriorityFeePerGas: old.maxPriorityFeePerGas ?? 0n },
      await evmFeeQuote(this.rpc),
      old.gas,
      ceiling,
    );
    if (!fees) return undefined;
    const serialized = await this.account.signTransaction({
      type: 'eip1559',
      chainId: old.chainId,
      nonce: old.nonce,
      to: old.to,
      value: old.value,
      gas: old.gas,
      ...fees,
    });
    const parsed = parseTransaction(serialized);
    if (
      parsed.nonce !== old.nonce ||
      parsed.to?.toLowerCase() !== old.to.toLowerCase() ||
      parsed.value !== old.value ||
      (parsed.data && parsed.data !== '0x')
    ) {
      throw new SignerRefusal('the replacement does not pay exactly what the payment it replaces paid');
    }
    return { rawTx: serialized, txid: keccak256(serialized), feeBase: old.gas * fees.maxFeePerGas };
  }

  /**
   * The next nonce of `address`, reserved in the caller's transaction (row-locked): the larger of the one stored and the
   * node's pending count (the operator may have sent from the address meanwhile).
   */
  private async reserveNonce(address: string, pending: bigint, executor: Executor): Promise<bigint> {
    const key = address.toLowerCase();
    await executor.execute(
      sql`insert into evm_nonces (network, address, next_nonce) values (${this.chain.network}, ${key}, ${pending.toString()}) on conflict do nothing`,
    );
    const result = (await executor.execute(
      sql`select next_nonce::text as n from evm_nonces where network = ${this.chain.network} and address = ${key} for update`,
    )) as unknown as { rows: Array<{ n: string }> };
    const nonce = [BigInt(result.rows[0].n), pending].reduce((a, b) => (a > b ? a : b));
    await executor.execute(sql`update evm_nonces set next_nonce = ${(nonce + 1n).toString()} where network = ${this.chain.network} and address = ${key}`);
    return nonce;
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
