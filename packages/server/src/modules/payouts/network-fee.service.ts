import { Inject, Injectable } from '@nestjs/common';
import type { NetworkFeeDto } from '@coinpurse/contract';
import { InvalidInputError } from '../../common/errors';
import { DATABASE, type Database } from '../../db/database';
import { ChainConnections, type ConnectedChain } from '../chain/chain-connections';
import Decimal from 'decimal.js';
import { baseToDecimal, baseToFixed, decimalToBase, payoutAmountBase } from '../../chain-core/amounts';
import { plain, toMoney } from '../ledger/money';
import { JsonRpcClient, nodeAmountToBase } from '../../chain-core/json-rpc';
import { TokenNetworksRepository } from '../networks/token-networks.repository';
import { SendFeeCheck, withdrawalFeeRefusal } from '../wallet/send-fee-check';
import type { SignerClient } from '../signer-client/signer-client';
import { SignerClients } from '../signer-client/signer-clients';
import { evmFeeQuote, evmQuotedFee, feeNotCoveredRefusal, NATIVE_TRANSFER_GAS, recipientGetsBase } from '../../chain-core/fees';
import { PayoutsRepository } from './payouts.repository';

/** Confirmation target of the UTXO estimate shown before a send. */
const FEE_TARGET_BLOCKS = 6;
/** The EVM quote aims at the next block (its base fee, a median tip). */
const EVM_TARGET_BLOCKS = 1;
/** The typical payment whose fee stands for one too small to carry its own: 10^-3 of a coin (the signer funds it, fee included). */
const PROBE_AMOUNT_DIGITS = 3;
/** The most decimals of an amount of a token settled by hand (a balance's exact decimals). */
const MANUAL_DECIMALS = 18;
/** A P2WPKH payout: one input, the payment and change (vbytes). */
const TYPICAL_PAYOUT_VBYTES = 141n;

/**
 * The fees of a send, for the Send confirm step: the schedule's withdrawal fee (cp_withdrawal_fee, the one cp_send
 * checks; out of the amount) and the network fee. On the networks the platform pays out on by itself the customer pays
 * the network fee out of what is left (see src/chain-core/fees.ts): UTXO: the fee the hot wallet would pay for this
 * payment (funded, never signed nor locked) and the node's rate (`estimatesmartfee`); EVM: `eth_feeHistory`'s next base
 * fee plus the median tip, times 21,000 gas (a plain transfer), the quote the signer charges. An ERC-20 token's gas and
 * a token settled by hand are the platform's: a network fee of 0 to the customer. The answer's `refusal` is Send's
 * (the fees take the whole amount); Send refuses the network-fee case through `sendRefusal` (the wallet's SendFeeCheck).
 */
@Injectable()
export class NetworkFeeService implements SendFeeCheck {
  private readonly evmClients = new Map<string, JsonRpcClient>();

  constructor(
    private readonly chains: ChainConnections,
    private readonly signers: SignerClients,
    private readonly payoutRows: PayoutsRepository,
    private readonly tokenNetworks: TokenNetworksRepository,
    @Inject(DATABASE) private readonly db: Database,
  ) {}

  async networkFee(tokenId: string, coinAmount: string | undefined, network?: string): Promise<NetworkFeeDto> {
    const chain = this.nativeChain(tokenId);
    if (!chain || (network !== undefined && network !== chain.network)) return this.platformFee(tokenId, coinAmount, network);
    const decimals = chain.nativeDecimals;
    const amountBase = parseCoinAmount(coinAmount, decimals);
    const signer = this.signers.get(chain.network);
    const symbol = await this.payoutRows.symbolOf(tokenId, this.db);
    // The schedule's withdrawal fee comes out of the amount first (as at Send); the payout pays the rest, less its fee
    // — unless the fee is fixed on this network: then the platform pays the network fee.
    const withdrawal = await this.withdrawalFee(tokenId, chain.network, decimals);
    if (withdrawal.mode === 'fixed') return this.platformFee(tokenId, coinAmount, chain.network, { network: chain.network, decimals });
    const heldBase = recipientGetsBase(amountBase, withdrawal.base);
    const estimate = await this.quote(chain, heldBase > 0n ? heldBase : amountBase);
    const { feeBase, feeRateBase } = estimate;
    const refusal =
      heldBase === 0n
        ? withdrawalFeeRefusal(withdrawal.text, symbol)
        : feeBase === null
          ? undefined
          : feeNotCoveredRefusal(heldBase, feeBase, decimals, symbol);
    return {
      token: tokenId,
      network: chain.network,
      coinAmount: baseToFixed(amountBase, decimals),
      estimatedFee: feeBase === null ? null : baseToFixed(feeBase, decimals),
      feeRate: feeRateBase === null ? null : baseToFixed(feeRateBase, decimals),
      targetBlocks: estimate.targetBlocks,
      ...(signer?.family === 'evm' ? { gasLimit: Number(NATIVE_TRANSFER_GAS) } : {}),
      recipientGets: feeBase === null ? null : baseToFixed(recipientGetsBase(heldBase, feeBase), decimals),
      feePaidBy: 'customer',
      withdrawalFee: withdrawal.text,
      ...(refusal ? { refusal } : {}),
    };
  }

  /** The schedule's withdrawal fee of `token`: as text, and in base units rounded up (the held amount is truncated). */
  private async withdrawalFee(token: string, network: string, decimals: number): Promise<{ text: string; base: bigint; mode: 'network' | 'fixed' }> {
    const terms = await this.payoutRows.withdrawalTerms(token, network, this.db);
    const fee = toMoney(terms.fee);
    return { text: plain(fee), base: BigInt(fee.mul(toMoney(10).pow(decimals)).toDecimalPlaces(0, Decimal.ROUND_UP).toFixed(0)), mode: terms.mode };
  }

  /**
   * Why a send of `coinAmount` of `token` on `network` is refused: the quoted network fee takes all of it (the
   * customer pays it out of the amount). Undefined when it covers the fee, when the platform does not pay out the
   * token's coin on that network by itself (ERC-20 gas is the platform's; manual settlement), or without a quote
   * (the node is down: the signer checks again against the fee it charges).
   */
  async sendRefusal(token: string, network: string, coinAmount: string): Promise<string | undefined> {
    const chain = this.nativeChain(token);
    if (chain?.network !== network) return undefined;
    const amountBase = payoutAmountBase(coinAmount, chain.nativeDecimals);
    const { feeBase } = await this.quote(chain, amountBase);
    if (feeBase === null) return undefined;
    return feeNotCoveredRefusal(amountBase, feeBase, chain.nativeDecimals, await this.payoutRows.symbolOf(token, this.db));
  }

  /** The chain paying out `tokenId` as its own coin by itself (a signer configured), if any. */
  private nativeChain(tokenId: string): ConnectedChain | undefined {
    return this.chains.list().find((c) => this.signers.get(c.network) && c.nativeCoins.includes(tokenId));
  }

  private async quote(chain: ConnectedChain, amountBase: bigint): Promise<{ feeBase: bigint | null; feeRateBase: bigint | null; targetBlocks: number }> {
    const signer = this.signers.get(chain.network);
    if (signer?.family === 'evm') return this.evmEstimate(chain);
    if (signer) return this.utxoEstimate(signer, amountBase, chain.nativeDecimals);
    return { feeBase: null, feeRateBase: null, targetBlocks: FEE_TARGET_BLOCKS };
  }

  /**
   * A token whose network fee the platform pays: an ERC-20 token the EVM signer pays out (a contract on a network with
   * a signer: its gas), a token settled by hand on `network` (by default its first), or a coin whose withdrawal fee is
   * fixed on its chain (`native`). The customer pays only the schedule's withdrawal fee: `estimatedFee` "0", the
   * recipient gets the amount less the withdrawal fee.
   */
  private async platformFee(
    tokenId: string,
    coinAmount: string | undefined,
    network: string | undefined,
    native?: { network: string; decimals: number },
  ): Promise<NetworkFeeDto> {
    if (native) {
      const amountBase = parseCoinAmount(coinAmount, native.decimals);
      const withdrawal = await this.withdrawalFee(tokenId, native.network, native.decimals);
      const refusal = withdrawal.base >= amountBase ? withdrawalFeeRefusal(withdrawal.text, await this.payoutRows.symbolOf(tokenId, this.db)) : undefined;
      return {
        token: tokenId,
        network: native.network,
        coinAmount: baseToFixed(amountBase, native.decimals),
        estimatedFee: '0',
        feeRate: null,
        targetBlocks: FEE_TARGET_BLOCKS,
        recipientGets: baseToFixed(recipientGetsBase(amountBase, withdrawal.base), native.decimals),
        feePaidBy: 'platform',
        withdrawalFee: withdrawal.text,
        ...(refusal ? { refusal } : {}),
      };
    }
    const rows = await this.tokenNetworks.listForCoin(String(tokenId));
    if (!rows.length) throw new InvalidInputError(`"${String(tokenId).slice(0, 40)}" is not a supported token.`);
    if (network !== undefined && !rows.some((r) => r.network === network))
      throw new InvalidInputError(`"${String(tokenId).slice(0, 40)}" is not sent on the network "${String(network).slice(0, 40)}".`);
    const erc20 = rows.find(
      (r) =>
        (network === undefined || r.network === network) && r.contractAddress && this.chains.get(r.network)?.family === 'evm' && this.signers.get(r.network),
    );
    const row = erc20 ?? rows.find((r) => r.network === network) ?? rows[0];
    const decimals = erc20 ? (erc20.contractDecimals ?? 18) : MANUAL_DECIMALS;
    const amount = toMoney(baseToDecimal(parseCoinAmount(coinAmount, decimals), decimals));
    const fee = toMoney((await this.payoutRows.withdrawalTerms(tokenId, row.network, this.db)).fee);
    const refusal = fee.gte(amount) ? withdrawalFeeRefusal(plain(fee), await this.payoutRows.symbolOf(tokenId, this.db)) : undefined;
    return {
      token: tokenId,
      network: row.network,
      coinAmount: erc20 ? amount.toFixed(decimals) : plain(amount),
      estimatedFee: '0',
      feeRate: null,
      targetBlocks: EVM_TARGET_BLOCKS,
      recipientGets: refusal ? '0' : erc20 ? amount.sub(fee).toFixed(decimals, Decimal.ROUND_DOWN) : plain(amount.sub(fee)),
      feePaidBy: 'platform',
      withdrawalFee: plain(fee),
      ...(refusal ? { refusal } : {}),
    };
  }

  private async utxoEstimate(signer: SignerClient, amountBase: bigint, decimals: number) {
    const estimate = await signer.client.call<{ feerate?: number }>('estimatesmartfee', [FEE_TARGET_BLOCKS]).catch(() => ({}) as { feerate?: number });
    const feeRateBase = typeof estimate.feerate === 'number' ? nodeAmountToBase(estimate.feerate, decimals) : null;
    let feeBase = await signer.feeFor(amountBase).catch(() => null);
    // An amount the fee takes entirely (or too small to be an output at all): the fee of a typical payment, paid on top.
    feeBase ??= await signer.feeFor(10n ** BigInt(Math.max(0, decimals - PROBE_AMOUNT_DIGITS))).catch(() => null);
    // The wallet cannot fund it (or is unreachable): the rate times a typical payout's size.
    if (feeBase === null && feeRateBase !== null) feeBase = (feeRateBase * TYPICAL_PAYOUT_VBYTES + 999n) / 1000n;
    return { feeBase, feeRateBase, targetBlocks: FEE_TARGET_BLOCKS };
  }

  private async evmEstimate(chain: ConnectedChain) {
    let client = this.evmClients.get(chain.network);
    if (!client) {
      client = new JsonRpcClient({ rpcUrl: chain.rpcUrl, rpcUrlForLogs: chain.rpcUrlForLogs, timeoutMs: 10_000 });
      this.evmClients.set(chain.network, client);
    }
    const quote = await evmFeeQuote(client).catch(() => null);
    return {
      feeBase: quote ? evmQuotedFee(quote, NATIVE_TRANSFER_GAS) : null,
      feeRateBase: quote ? quote.baseFeePerGas + quote.priorityFeePerGas : null,
      targetBlocks: EVM_TARGET_BLOCKS,
    };
  }
}

/** A positive amount of the query, in the smallest unit of `decimals` (400 otherwise). */
function parseCoinAmount(coinAmount: string | undefined, decimals: number): bigint {
  const text = typeof coinAmount === 'string' ? coinAmount.trim() : '';
  let amountBase: bigint;
  try {
    amountBase = decimalToBase(text, decimals);
  } catch {
    amountBase = 0n;
  }
  if (amountBase <= 0n) throw new InvalidInputError(`coinAmount must be a positive amount with at most ${decimals} decimals.`);
  return amountBase;
}
