import { type Hex, keccak256, parseTransaction } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { SqlExecutor } from '../db/sql-executor';
import { checkRecipientAmount, readApprovedEvmPayment } from '../chain-core/approved-payments';
import { type ApprovedEvmPayment, paysExactly, tokenBalance, transferCalldata } from '../chain-core/erc20';
import { reserveEvmNonce } from '../chain-core/evm-nonces';
import { evmFeeQuote, evmPaymentFees, evmQuotedFee, evmReplacementFees, maxFeeBase } from '../chain-core/fees';
import { ChainRpcError, evmQuantity as hexToBigInt, JsonRpcClient } from '../chain-core/json-rpc';
import { HotWalletShort, type PayoutRequest, type SignedPayout, SignerRefusal, type StoredPayment } from '../chain-core/signer-contract';
import type { EvmKeyFile } from './evm-key-file';
import { EvmSweepSigner } from './evm-sweep-signer';
import type { HotSigner, SignerChain } from './hot-signer';

/**
 * The EVM family's signer: a local key read from `CHAIN_<NETWORK>_KEY_FILE` (outside the database, readable only by
 * the process that signs) signs EIP-1559 payments from its hot address: the native coin — the approved amount less the
 * network fee at the quote (gas × (base fee + tip), which the customer pays) — or an ERC-20 token by its contract's
 * `transfer(to, amount)` (the whole amount; its gas is the platform's). Like the node-wallet signer it re-reads the
 * withdrawal and signs only its approved payment (the transaction's `to`, `value` and `data` — the transfer's calldata
 * decoded — are checked after signing). With the account's xprv in the key file it also holds the sweep signer
 * (`sweeper`). Nonces are reserved per sending address in the database (`evm_nonces`), in the transaction that stores
 * the signed payment, so two payouts never share one and a restart never reuses one.
 */
export class EvmKeySigner implements HotSigner {
  private readonly rpc: JsonRpcClient;
  private readonly account: PrivateKeyAccount;
  /** Signs the sweeps of the deposit addresses (the key file holds the account's xprv); undefined: no sweeps. */
  readonly sweeper: EvmSweepSigner | undefined;

  constructor(
    private readonly chain: SignerChain,
    keys: EvmKeyFile,
  ) {
    this.account = privateKeyToAccount(keys.hotKey);
    this.rpc = new JsonRpcClient({ rpcUrl: chain.rpcUrl, rpcUrlForLogs: chain.rpcUrlForLogs, timeoutMs: 30_000 });
    this.sweeper = keys.depositKey ? new EvmSweepSigner(chain, this.account, keys.depositKey, this.rpc) : undefined;
  }

  /** The hot address payouts are sent from. */
  get source(): string {
    return this.account.address;
  }

  approved(request: PayoutRequest, executor: SqlExecutor): Promise<ApprovedEvmPayment> {
    return readApprovedEvmPayment(request, this.chain, executor, this.rpc);
  }

  spends(rawTx: string): Promise<{ fromAddress: string | null; nonce: bigint | null; inputs: null }> {
    const parsed = parseTransaction(rawTx as Hex);
    return Promise.resolve({ fromAddress: this.account.address.toLowerCase(), nonce: parsed.nonce === undefined ? null : BigInt(parsed.nonce), inputs: null });
  }

  /** A refusal is logged by SigningService (once, for every signer). */
  async sign(request: PayoutRequest, executor: SqlExecutor): Promise<SignedPayout> {
    const approved = await readApprovedEvmPayment(request, this.chain, executor, this.rpc);
    return this.signTransfer(approved, executor);
  }

  private async signTransfer(approved: ApprovedEvmPayment, executor: SqlExecutor): Promise<SignedPayout> {
    const from = this.account.address;
    // A token is paid by its contract's transfer(to, amount), with no value.
    const to = (approved.contract ?? approved.address) as Hex;
    const data = approved.contract ? transferCalldata(approved.address, approved.amountBase) : undefined;
    if (approved.contract) {
      const held = await tokenBalance(this.rpc, approved.contract, from);
      if (held < approved.amountBase) throw new HotWalletShort(`the hot address ${from} holds ${held} of the token, less than ${approved.amountBase}`);
    }
    const [chainIdHex, pendingHex, balanceHex] = await this.rpc.batch<unknown>([
      { method: 'eth_chainId' },
      { method: 'eth_getTransactionCount', params: [from, 'pending'] },
      { method: 'eth_getBalance', params: [from, 'latest'] },
    ]);
    const quote = await evmFeeQuote(this.rpc);
    const gas = hexToBigInt(
      await this.rpc
        .call('eth_estimateGas', [{ from, to, value: `0x${(approved.contract ? 0n : approved.amountBase).toString(16)}`, ...(data ? { data } : {}) }])
        .catch((error: unknown) => {
          if (error instanceof ChainRpcError && error.rpcCode !== undefined) throw new SignerRefusal(`the node cannot estimate the transfer: ${error.message}`);
          throw error;
        }),
      'eth_estimateGas',
    );
    const { maxFeePerGas, maxPriorityFeePerGas } = evmPaymentFees(quote, gas, maxFeeBase(this.chain));
    // A native payment: the customer pays the network fee at the quote, the recipient gets the amount less it. A token
    // payment, or a withdrawal whose fee is fixed: the recipient gets the whole amount, the gas is the platform's.
    const chargedFeeBase = approved.contract || approved.platformPaysFee ? 0n : evmQuotedFee(quote, gas);
    const value = approved.contract ? 0n : approved.amountBase - chargedFeeBase;
    if (!approved.contract && value <= 0n)
      throw new SignerRefusal(`the amount ${approved.amountBase} wei does not cover the network fee (${chargedFeeBase} wei)`);
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
    const paid = approved.contract ? approved : { ...approved, amountBase: value };
    if (!paysExactly(parseTransaction(serialized), paid)) throw new SignerRefusal('the signed transaction does not pay exactly the approved output');
    // The fee at most (gas × max fee); the one actually paid is read from the receipt.
    return { rawTx: serialized, txid: keccak256(serialized), feeBase: gas * maxFeePerGas, chargedFeeBase };
  }

  /**
   * A same-nonce replacement of a stuck payment: the same recipient, value, calldata and gas, tip and fee cap each at
   * least 10 % higher (and what the quote asks now), within the ceiling; undefined when the ceiling leaves no room. The
   * withdrawal is checked as for `sign`, and the payment replaced must pay exactly its approved output: the native
   * amount less a fee within the ceiling, or a token's `transfer(to, amount)` of the whole amount (its gas is the
   * platform's, so only the fee rises).
   */
  async replace(request: PayoutRequest, payment: StoredPayment, executor: SqlExecutor): Promise<SignedPayout | undefined> {
    const approved = await readApprovedEvmPayment(request, this.chain, executor, this.rpc);
    return this.replaceTransfer(approved, payment);
  }

  private async replaceTransfer(approved: ApprovedEvmPayment, payment: StoredPayment): Promise<SignedPayout | undefined> {
    const ceiling = maxFeeBase(this.chain);
    if (keccak256(payment.rawTx as Hex) !== payment.txid) throw new SignerRefusal('the stored bytes are not the stored transaction');
    const old = parseTransaction(payment.rawTx as Hex);
    if (old.type !== 'eip1559' || old.nonce === undefined || !old.gas || old.chainId === undefined || !old.to)
      throw new SignerRefusal('only an EIP-1559 payment is replaced');
    if (approved.contract) {
      if (!paysExactly(old, approved)) throw new SignerRefusal('the payment replaced does not pay exactly the approved token transfer');
    } else {
      if (old.to.toLowerCase() !== approved.address.toLowerCase() || (old.data && old.data !== '0x')) {
        throw new SignerRefusal('the payment replaced does not pay the approved address');
      }
      checkRecipientAmount(old.value ?? 0n, approved, ceiling);
    }
    const fees = evmReplacementFees(
      { maxFeePerGas: old.maxFeePerGas ?? 0n, maxPriorityFeePerGas: old.maxPriorityFeePerGas ?? 0n },
      await evmFeeQuote(this.rpc),
      old.gas,
      ceiling,
    );
    if (!fees) return undefined;
    const data = old.data && old.data !== '0x' ? old.data : undefined;
    const serialized = await this.account.signTransaction({
      type: 'eip1559',
      chainId: old.chainId,
      nonce: old.nonce,
      to: old.to,
      value: old.value,
      ...(data ? { data } : {}),
      gas: old.gas,
      ...fees,
    });
    const parsed = parseTransaction(serialized);
    if (
      parsed.nonce !== old.nonce ||
      parsed.to?.toLowerCase() !== old.to.toLowerCase() ||
      (parsed.value ?? 0n) !== (old.value ?? 0n) ||
      (parsed.data && parsed.data !== '0x' ? parsed.data : undefined) !== data
    ) {
      throw new SignerRefusal('the replacement does not pay exactly what the payment it replaces paid');
    }
    return { rawTx: serialized, txid: keccak256(serialized), feeBase: old.gas * fees.maxFeePerGas };
  }
}
