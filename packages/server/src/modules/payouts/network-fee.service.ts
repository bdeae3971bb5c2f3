import { Injectable } from '@nestjs/common';
import type { NetworkFeeDto } from '@coinpurse/contract';
import { InvalidInputError } from '../../common/errors';
import { ChainConnections, type ConnectedChain } from '../chain/chain-connections';
import { JsonRpcClient } from '../chain/json-rpc';
import { coinsToBase } from '../chain/utxo-node';
import { baseToCoins } from './payout-signer';
import type { RemoteSigner } from './remote-signer';
import { evmFeeQuote, evmQuotedFee, NATIVE_TRANSFER_GAS } from './payout-fees';
import { PayoutsService } from './payouts.service';

/** Confirmation target of the UTXO estimate shown before a send. */
const FEE_TARGET_BLOCKS = 6;
/** The EVM quote aims at the next block (its base fee, a median tip). */
const EVM_TARGET_BLOCKS = 1;
/** A P2WPKH payout: one input, the payment and change (vbytes). */
const TYPICAL_PAYOUT_VBYTES = 141n;

/**
 * The network fee a send would pay, for the Send confirm step, on the networks the platform pays out on by itself. The
 * customer pays it out of the amount (see payout-fees.ts), so the step shows it and what the recipient gets. UTXO: the
 * fee the hot wallet would pay for this payment (funded, never signed nor locked) and the node's rate
 * (`estimatesmartfee`); EVM: `eth_feeHistory`'s next base fee plus the median tip, times 21,000 gas (a plain transfer),
 * the quote the signer charges.
 */
@Injectable()
export class NetworkFeeService {
  private readonly evmClients = new Map<string, JsonRpcClient>();

  constructor(
    private readonly chains: ChainConnections,
    private readonly payouts: PayoutsService,
  ) {}

  async networkFee(tokenId: string, coinAmount: string | undefined): Promise<NetworkFeeDto> {
    const chain = this.chains.list().find((c) => this.payouts.signerOf(c.network) && c.nativeCoins.includes(tokenId));
    if (!chain) throw new InvalidInputError(`"${String(tokenId).slice(0, 40)}" is not paid out on the chain by the platform: no network fee estimate.`);
    const text = typeof coinAmount === 'string' ? coinAmount.trim() : '';
    let amountBase: bigint;
    try {
      amountBase = coinsToBase(text, chain.nativeDecimals);
    } catch {
      throw new InvalidInputError(`coinAmount must be a positive amount with at most ${chain.nativeDecimals} decimals.`);
    }
    if (amountBase <= 0n) throw new InvalidInputError(`coinAmount must be a positive amount with at most ${chain.nativeDecimals} decimals.`);
    const signer = this.payouts.signerOf(chain.network);
    const estimate =
      signer?.family === 'evm'
        ? await this.evmEstimate(chain)
        : signer
          ? await this.utxoEstimate(signer, amountBase, chain.nativeDecimals)
          : { feeBase: null, feeRateBase: null, targetBlocks: FEE_TARGET_BLOCKS };
    const { feeBase, feeRateBase } = estimate;
    const decimals = chain.nativeDecimals;
    return {
      token: tokenId,
      network: chain.network,
      coinAmount: baseToCoins(amountBase, decimals),
      estimatedFee: feeBase === null ? null : baseToCoins(feeBase, decimals),
      feeRate: feeRateBase === null ? null : baseToCoins(feeRateBase, decimals),
      targetBlocks: estimate.targetBlocks,
      ...(signer?.family === 'evm' ? { gasLimit: Number(NATIVE_TRANSFER_GAS) } : {}),
      recipientGets: feeBase === null ? null : baseToCoins(feeBase >= amountBase ? 0n : amountBase - feeBase, decimals),
      feePaidBy: 'customer',
    };
  }

  private async utxoEstimate(signer: RemoteSigner, amountBase: bigint, decimals: number) {
    const estimate = await signer.client.call<{ feerate?: number }>('estimatesmartfee', [FEE_TARGET_BLOCKS]).catch(() => ({}) as { feerate?: number });
    const feeRateBase = typeof estimate.feerate === 'number' ? coinsToBase(estimate.feerate, decimals) : null;
    let feeBase = await signer.feeFor(amountBase).catch(() => null);
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
