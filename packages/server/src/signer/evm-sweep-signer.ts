import { Logger } from '@nestjs/common';
import type { HDKey } from '@scure/bip32';
import { and, eq } from 'drizzle-orm';
import { type Hex, keccak256, parseTransaction, toHex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { SqlExecutor } from '../db/sql-executor';
import { depositAddresses } from '../db/schema/chain';
import { sweeps } from '../db/schema/sweeps';
import type { ChainEndpoint } from '../chain-core/chain-endpoint';
import { paysExactly, tokenBalance, transferCalldata } from '../chain-core/erc20';
import { reserveEvmNonce } from '../chain-core/evm-nonces';
import { evmSweepFees, NATIVE_TRANSFER_GAS } from '../chain-core/fees';
import { ChainRpcError, evmQuantity as quantity, type JsonRpcClient } from '../chain-core/json-rpc';
import { HotWalletShort, type SignedSweepTx, SignerRefusal, SweepDeferred } from '../chain-core/signer-contract';

/**
 * Signs the sweeps of an EVM network's customer deposit addresses: it holds the account's extended private key (the
 * private counterpart of `CHAIN_<NETWORK>_XPUB`, from the key file) and derives a deposit address's key at the index
 * the database stores for it — only for an address the database lists as a customer's deposit address of this
 * network, derived from this very key (fingerprint and derived address checked). What it signs is fixed here, not by
 * the caller: a sweep pays the hot address only (the whole token balance, or the native balance minus its gas), and a
 * gas top-up goes from the hot address to that deposit address only, of no more than the sweep's gas. Each signed
 * transaction is parsed back and checked before it is returned; nonces are reserved in the database (`evm_nonces`).
 */
export class EvmSweepSigner {
  private readonly logger = new Logger('SweepSigner');
  private readonly fingerprint: string;

  constructor(
    private readonly chain: ChainEndpoint,
    private readonly hot: PrivateKeyAccount,
    private readonly accountKey: HDKey,
    private readonly rpc: JsonRpcClient,
  ) {
    this.fingerprint = accountKey.fingerprint.toString(16).padStart(8, '0');
  }

  /** The hot address sweeps pay to. */
  get hotAddress(): string {
    return this.hot.address;
  }

  /**
   * The gas top-up an ERC-20 sweep needs before its transfer can be sent: undefined when the deposit address already
   * holds the gas, else the hot address's signed payment of the difference to it.
   */
  async signTopUp(sweepId: string, executor: SqlExecutor): Promise<SignedSweepTx | undefined> {
    return this.refusingLogged(sweepId, async () => {
      const sweep = await this.openSweep(sweepId, ['planned'], executor);
      if (!sweep.contract) throw new SignerRefusal('a native sweep pays its own gas');
      const deposit = await this.depositAccount(sweep.address, executor);
      const held = await tokenBalance(this.rpc, sweep.contract, deposit.address);
      if (held === 0n) throw new SweepDeferred('the deposit address holds none of the token');
      const fees = await evmSweepFees(this.rpc);
      const gas = await this.tokenTransferGas(deposit.address, sweep.contract, held);
      const needed = gas * fees.maxFeePerGas;
      const have = await this.balance(deposit.address);
      if (have >= needed) return undefined;
      const value = needed - have;
      const hotBalance = await this.balance(this.hot.address);
      if (hotBalance < value + NATIVE_TRANSFER_GAS * fees.maxFeePerGas) {
        throw new HotWalletShort(`the hot address ${this.hot.address} holds ${hotBalance} wei, less than the top-up of ${value} plus gas`);
      }
      const payment = { address: deposit.address, amountBase: value, contract: null };
      return this.signFrom(this.hot, payment, NATIVE_TRANSFER_GAS, fees, executor);
    });
  }

  /**
   * The sweep itself, from the deposit address to the hot address: the whole token balance (its gas paid by the
   * top-up), or the native balance minus its gas, refused below `minNativeBase` (SweepDeferred).
   */
  async signSweep(sweepId: string, minNativeBase: bigint, executor: SqlExecutor): Promise<SignedSweepTx> {
    return this.refusingLogged(sweepId, async () => {
      // A native sweep is signed as planned; an ERC-20 one once its gas is there (ready).
      const sweep = await this.openSweep(sweepId, ['planned', 'ready'], executor);
      if (sweep.contract && sweep.state !== 'ready') throw new SignerRefusal("the sweep's gas top-up is not done");
      if (!sweep.contract && sweep.state !== 'planned') throw new SignerRefusal(`the sweep is ${sweep.state}`);
      const deposit = await this.depositAccount(sweep.address, executor);
      const fees = await evmSweepFees(this.rpc);
      const have = await this.balance(deposit.address);
      if (!sweep.contract) {
        const amountBase = have - NATIVE_TRANSFER_GAS * fees.maxFeePerGas;
        if (amountBase <= 0n || amountBase < minNativeBase) throw new SweepDeferred(`the balance of ${have} wei no longer covers its gas and the minimum`);
        return this.signFrom(deposit, { address: this.hot.address, amountBase, contract: null }, NATIVE_TRANSFER_GAS, fees, executor);
      }
      const amountBase = await tokenBalance(this.rpc, sweep.contract, deposit.address);
      if (amountBase === 0n) throw new SweepDeferred('the deposit address holds none of the token');
      const gas = await this.tokenTransferGas(deposit.address, sweep.contract, amountBase);
      // The gas the top-up brought, at whatever price it allows now (at least the base fee and the tip).
      const maxFeePerGas = have / gas < fees.maxFeePerGas ? have / gas : fees.maxFeePerGas;
      if (maxFeePerGas < fees.baseFee + fees.maxPriorityFeePerGas) {
        throw new HotWalletShort(`the deposit address holds ${have} wei, too little gas for the transfer at the current fees (retried)`);
      }
      return this.signFrom(deposit, { address: this.hot.address, amountBase, contract: sweep.contract }, gas, { ...fees, maxFeePerGas }, executor);
    });
  }

  private async refusingLogged<T>(sweepId: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof SignerRefusal) this.logger.warn(`Refused to sign sweep ${sweepId} on ${this.chain.network}: ${error.message}`);
      throw error;
    }
  }

  /** The sweep as the database shows it, in one of `states`, on this signer's network. */
  private async openSweep(id: string, states: string[], executor: SqlExecutor) {
    const [sweep] = await executor.select().from(sweeps).where(eq(sweeps.id, id));
    if (!sweep) throw new SignerRefusal('no such sweep');
    if (sweep.network !== this.chain.network) throw new SignerRefusal(`the sweep is on ${sweep.network}, this signer signs on ${this.chain.network}`);
    if (!states.includes(sweep.state)) throw new SignerRefusal(`the sweep is ${sweep.state}`);
    return sweep;
  }

  /**
   * The key of a customer deposit address: the database must list it on this network, derived from this account key
   * (its fingerprint), and the key derived at its stored index must give exactly that address.
   */
  private async depositAccount(address: string, executor: SqlExecutor): Promise<PrivateKeyAccount> {
    const [row] = await executor
      .select({ index: depositAddresses.derivationIndex, fingerprint: depositAddresses.keyFingerprint, address: depositAddresses.address })
      .from(depositAddresses)
      .where(and(eq(depositAddresses.network, this.chain.network), eq(depositAddresses.address, address)));
    if (!row) throw new SignerRefusal(`${address} is not a customer deposit address on ${this.chain.network}`);
    if (row.fingerprint !== this.fingerprint) throw new SignerRefusal(`${address} was derived from another key (${row.fingerprint})`);
    const child = this.accountKey.deriveChild(0).deriveChild(row.index);
    const account = privateKeyToAccount(toHex(child.privateKey!));
    if (account.address.toLowerCase() !== row.address.toLowerCase()) throw new SignerRefusal(`the key at index ${row.index} does not give ${address}`);
    return account;
  }

  private async signFrom(
    from: PrivateKeyAccount,
    payment: { address: string; amountBase: bigint; contract: string | null },
    gas: bigint,
    fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
    executor: SqlExecutor,
  ): Promise<SignedSweepTx> {
    const [chainIdHex, pendingHex] = await this.rpc.batch<unknown>([
      { method: 'eth_chainId' },
      { method: 'eth_getTransactionCount', params: [from.address, 'pending'] },
    ]);
    const nonce = await reserveEvmNonce(executor, this.chain.network, from.address, quantity(pendingHex, 'eth_getTransactionCount'));
    const data = payment.contract ? transferCalldata(payment.address, payment.amountBase) : undefined;
    const serialized = await from.signTransaction({
      type: 'eip1559',
      chainId: Number(quantity(chainIdHex, 'eth_chainId')),
      nonce: Number(nonce),
      to: (payment.contract ?? payment.address) as Hex,
      value: payment.contract ? 0n : payment.amountBase,
      ...(data ? { data } : {}),
      gas,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    if (!paysExactly(parseTransaction(serialized), payment)) throw new SignerRefusal('the signed transaction does not pay exactly what was decided');
    return { rawTx: serialized, txid: keccak256(serialized), amountBase: payment.amountBase, maxFeeBase: gas * fees.maxFeePerGas };
  }

  /** Gas of the token transfer to the hot address, with a quarter more room (the hot's token balance may change meanwhile). */
  private async tokenTransferGas(from: string, contract: string, amountBase: bigint): Promise<bigint> {
    const estimate = await this.rpc
      .call<string>('eth_estimateGas', [{ from, to: contract, data: transferCalldata(this.hot.address, amountBase) }])
      .catch((error: unknown) => {
        if (error instanceof ChainRpcError && error.rpcCode !== undefined) throw new SignerRefusal(`the node cannot estimate the transfer: ${error.message}`);
        throw error;
      });
    return (quantity(estimate, 'eth_estimateGas') * 5n) / 4n;
  }

  private async balance(address: string): Promise<bigint> {
    return quantity(await this.rpc.call('eth_getBalance', [address, 'latest']), 'eth_getBalance');
  }
}
