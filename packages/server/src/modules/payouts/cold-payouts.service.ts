import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ColdPayoutDto, UnsignedPayoutDto } from '@coinpurse/contract';
import { DATABASE, type Database, type Tx } from '../../db/database';
import type { Actor } from '../../common/principal';
import { ConflictError, InvalidInputError, NotFoundError, ServiceUnavailableError } from '../../common/errors';
import { ChainConnections, type ConnectedChain } from '../chain/chain-connections';
import { ChainRpcError } from '../../chain-core/json-rpc';
import { baseToFixed, decimalToBase } from '../../chain-core/amounts';
import { inTransaction } from '../../db/in-transaction';
import { AuditService } from '../audit/audit.service';
import type { ApprovedPayment } from '../../chain-core/approved-payments';
import { ColdPrepareError, ColdReleaseRefusal, type ColdWallet, ColdUploadRefusal } from './cold-wallet';
import { ColdPayoutsRepository } from './cold-payouts.repository';
import { EvmColdWallet } from './evm-cold-wallet';
import { readApprovedPayment } from '../../chain-core/approved-payments';
import { sameAddress } from '../../chain-core/erc20';
import { SignerRefusal } from '../../chain-core/signer-contract';
import { PayoutFailures } from './payout-failures';
import { type PayoutRecord, PayoutsRepository } from './payouts.repository';
import { UtxoColdWallet } from './utxo-cold-wallet';
import { SignerClients } from '../signer-client/signer-clients';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The cold path of the payouts (docs/operate/cold-wallets-and-reserves.md). The payout job asks it, under the payout's row lock, whether a
 * payout may be paid hot: above `CHAIN_<NETWORK>_HOT_LIMIT`, past `_HOT_DAILY_LIMIT` over the last 24 hours, or more
 * than the hot wallet holds, it waits as awaiting_cold_signature instead. An admin then downloads its unsigned
 * transaction (prepared once from public data, kept on the payout: every download is the same), signs it offline and
 * uploads it; a signed upload that pays exactly the approved output is stored with its txid (state signed, before
 * anything is broadcast) and the payout job broadcasts and confirms it like a hot one. Any other upload is refused
 * with the reason (400) and an audit row. Four-eyes is untouched: a payout exists only for a withdrawal the database
 * shows approved, and the approved payment is read from the database again before anything is prepared or stored.
 */
@Injectable()
export class ColdPayoutsService {
  private readonly logger = new Logger('ColdPayouts');
  private readonly sides = new Map<string, ColdWallet>();

  constructor(
    private readonly chains: ChainConnections,
    private readonly cold: ColdPayoutsRepository,
    private readonly payouts: PayoutsRepository,
    private readonly audit: AuditService,
    private readonly failures: PayoutFailures,
    @Inject(DATABASE) private readonly db: Database,
    signers: SignerClients,
  ) {
    for (const chain of chains.list()) {
      const settings = chain.hotCold;
      const signer = signers.get(chain.network);
      if (chain.family === 'utxo' && signer && settings?.coldWallet) {
        // Change back to the hot wallet counts as ours: the wallet the signer process names, read-only.
        this.sides.set(chain.network, new UtxoColdWallet(chain, settings.coldWallet, () => signer.hotWallet()));
      }
      if (chain.family === 'evm' && signer && settings?.coldAddress) this.sides.set(chain.network, new EvmColdWallet(chain, settings.coldAddress));
    }
  }

  /** The cold side of a network (undefined: every payout is paid hot, or waits for funds). */
  sideOf(network: string): ColdWallet | undefined {
    return this.sides.get(network);
  }

  /**
   * Before the hot signer signs `payout` (the job holds its row lock): when it is above a hot limit, it is moved to
   * awaiting_cold_signature with the reason, and true is answered (the hot signer must not sign it).
   */
  async routeToCold(chain: ConnectedChain, payout: PayoutRecord, tx: Tx): Promise<boolean> {
    if (!this.sides.has(chain.network)) return false;
    const reason = await this.aboveHotLimits(chain, payout, tx);
    if (!reason) return false;
    await this.hold(chain, payout, reason, tx);
    return true;
  }

  /** The hot wallet cannot pay `payout`: with a cold side it waits for its cold signature (true), else for funds. */
  async holdShortPayout(chain: ConnectedChain, payout: PayoutRecord, shortage: string, tx: Tx): Promise<boolean> {
    if (!this.sides.has(chain.network)) return false;
    await this.hold(chain, payout, `more than the hot wallet holds (${shortage})`, tx);
    return true;
  }

  /** Who reads the confirmations of a cold payment the hot signer cannot see (UTXO: the watch-only wallet). */
  statusReader(payout: PayoutRecord): { status: NonNullable<ColdWallet['status']> } | undefined {
    const side = payout.coldReason ? this.sides.get(payout.network) : undefined;
    const status = side?.status?.bind(side);
    return status ? { status } : undefined;
  }

  /** The open cold payouts: waiting for their signature, or signed and not completed yet. */
  async list(): Promise<ColdPayoutDto[]> {
    const rows = await this.cold.open();
    return rows.map(({ payout, token, symbol, userEmail }) => this.toDto(payout, token, symbol ?? token, userEmail));
  }

  /**
   * The unsigned transaction of a payout awaiting its cold signature: prepared on the first download (inputs or nonce
   * reserved, audited), the same bytes on every later one.
   */
  async unsigned(actor: Actor, transactionId: string): Promise<UnsignedPayoutDto> {
    const outcome = await inTransaction(
      this.db,
      async (tx) => {
        let payout = await this.awaitingSignature(transactionId, tx);
        const { chain, side } = this.coldSideFor(payout);
        if (!payout.unsignedTx) {
          const approved = await this.approvedPayment(chain, payout, tx);
          if ('notDue' in approved) return approved;
          // The inputs of the transactions handed out before stay theirs (a node forgets its locks when it restarts).
          if (side.reserveInputs) await side.reserveInputs(await this.cold.preparedUnsent(chain.network, tx));
          const prepared = await side.prepare(approved, tx).catch((error: unknown) => {
            if (error instanceof ColdPrepareError) throw new ConflictError(error.message);
            throw nodeDown(error);
          });
          payout = await this.payouts.update(
            payout,
            { unsignedTx: prepared.unsignedTx, unsignedFeeBase: prepared.feeBase.toString(), preparedAt: new Date(), lastError: null },
            chain.nativeDecimals,
            tx,
          );
          await this.audit.record(
            actor,
            {
              action: 'chain.cold_payout_prepared',
              targetType: 'transaction',
              targetId: transactionId,
              after: { network: chain.network, format: side.format, from: side.source, fee: baseToFixed(prepared.feeBase, chain.nativeDecimals) },
            },
            tx,
          );
          this.logger.log(`Prepared the unsigned ${side.format} of withdrawal ${transactionId} on ${chain.network} for its cold signature`);
        }
        const prepared = { unsignedTx: payout.unsignedTx!, feeBase: BigInt(payout.unsignedFeeBase ?? '0') };
        return {
          transactionId,
          network: chain.network,
          format: side.format,
          unsignedTx: prepared.unsignedTx,
          fileName: `withdrawal-${transactionId}.${side.format === 'psbt' ? 'psbt' : 'eip1559.txt'}`,
          from: side.source,
          address: payout.address,
          coinAmount: baseToFixed(BigInt(payout.amountBase), chain.nativeDecimals),
          fee: baseToFixed(prepared.feeBase, chain.nativeDecimals),
          ...side.describe(prepared),
        } satisfies UnsignedPayoutDto;
      },
      1,
    );
    if ('notDue' in outcome) throw new ConflictError(outcome.notDue);
    return outcome;
  }

  /**
   * A signed upload: stored with its txid (state signed; the payout job broadcasts it) when it is the prepared
   * transaction, signed, paying exactly the approved output; refused with the reason and an audit row otherwise.
   */
  async uploadSigned(actor: Actor, transactionId: string, signedTx: string): Promise<ColdPayoutDto> {
    const outcome = await inTransaction(
      this.db,
      async (tx): Promise<{ notDue: string } | { refused: string } | { dto: ColdPayoutDto }> => {
        const payout = await this.awaitingSignature(transactionId, tx);
        const { chain, side } = this.coldSideFor(payout);
        if (!payout.unsignedTx)
          throw new ConflictError('Download the unsigned transaction of this withdrawal first, sign it offline, then upload the signed one.');
        const approved = await this.approvedPayment(chain, payout, tx);
        if ('notDue' in approved) return approved;
        const prepared = { unsignedTx: payout.unsignedTx, feeBase: BigInt(payout.unsignedFeeBase ?? '0') };
        let signed;
        try {
          signed = await side.accept(signedTx, prepared, approved);
        } catch (error) {
          if (!(error instanceof ColdUploadRefusal)) throw nodeDown(error);
          await this.audit.record(
            actor,
            {
              action: 'chain.cold_payout_refused',
              targetType: 'transaction',
              targetId: transactionId,
              after: { network: chain.network, reason: error.message },
            },
            tx,
          );
          this.logger.warn(`Refused the signed upload for withdrawal ${transactionId} on ${chain.network}: ${error.message}`);
          return { refused: error.message };
        }
        const stored = await this.payouts.update(
          payout,
          { state: 'signed', rawTx: signed.rawTx, txid: signed.txid, feeBase: signed.feeBase.toString(), signedAt: new Date(), lastError: null },
          chain.nativeDecimals,
          tx,
        );
        await this.audit.record(
          actor,
          {
            action: 'chain.cold_payout_signed',
            targetType: 'transaction',
            targetId: transactionId,
            after: { network: chain.network, txid: signed.txid, fee: baseToFixed(signed.feeBase, chain.nativeDecimals) },
          },
          tx,
        );
        this.logger.log(`Stored the cold-signed payout of withdrawal ${transactionId} on ${chain.network}: ${signed.txid}`);
        const view = await this.payouts.withdrawalView(transactionId, tx);
        return { dto: this.toDto(stored, view?.token ?? chain.nativeCoins[0], view?.symbol ?? view?.token ?? chain.nativeCoins[0], view?.email ?? null) };
      },
      1,
    );
    if ('notDue' in outcome) throw new ConflictError(outcome.notDue);
    if ('refused' in outcome) throw new InvalidInputError(outcome.refused);
    return outcome.dto;
  }

  /**
   * Discards the prepared unsigned transaction of a payout still waiting for its signature (nothing signed uploaded):
   * what it reserved is given back once none of it is seen on the chain, and the payout waits for its cold signature
   * again — the next download prepares a new one. 409 when nothing was prepared, or the prepared one may have been
   * sent offline.
   */
  async discardUnsigned(actor: Actor, transactionId: string): Promise<ColdPayoutDto> {
    return inTransaction(
      this.db,
      async (tx) => {
        const payout = await this.awaitingSignature(transactionId, tx);
        const { chain, side } = this.coldSideFor(payout);
        if (!payout.unsignedTx) throw new ConflictError('This withdrawal has no prepared unsigned transaction to discard.');
        const discarded = { unsignedTx: payout.unsignedTx, feeBase: BigInt(payout.unsignedFeeBase ?? '0') };
        await this.release(side, discarded, tx);
        const stored = await this.payouts.update(
          payout,
          { unsignedTx: null, unsignedFeeBase: null, preparedAt: null, lastError: null },
          chain.nativeDecimals,
          tx,
        );
        await this.audit.record(
          actor,
          {
            action: 'chain.cold_payout_discarded',
            targetType: 'transaction',
            targetId: transactionId,
            before: { unsignedTx: discarded.unsignedTx, fee: baseToFixed(discarded.feeBase, chain.nativeDecimals), ...side.describe(discarded) },
            after: { network: chain.network, state: stored.state },
          },
          tx,
        );
        this.logger.warn(`Discarded the unsigned ${side.format} of withdrawal ${transactionId} on ${chain.network}: it waits for a new one`);
        const view = await this.payouts.withdrawalView(transactionId, tx);
        return this.toDto(stored, view?.token ?? chain.nativeCoins[0], view?.symbol ?? view?.token ?? chain.nativeCoins[0], view?.email ?? null);
      },
      1,
    );
  }

  /**
   * Fails a payout waiting for its cold signature instead of paying it (nothing signed uploaded): what a prepared
   * transaction reserved is given back once none of it is seen on the chain, then `cp_fail_payout` returns the held
   * amount to the customer with the admin's reason, with the notification, mail and audit row (PayoutFailures).
   */
  async failCold(actor: Actor, transactionId: string, reason: string): Promise<ColdPayoutDto> {
    const outcome = await inTransaction(
      this.db,
      async (tx): Promise<{ notDue: string } | { dto: ColdPayoutDto }> => {
        const payout = await this.awaitingSignature(transactionId, tx);
        const { chain, side } = this.coldSideFor(payout);
        const approved = await this.approvedPayment(chain, payout, tx);
        if ('notDue' in approved) return approved;
        if (payout.unsignedTx) await this.release(side, { unsignedTx: payout.unsignedTx, feeBase: BigInt(payout.unsignedFeeBase ?? '0') }, tx);
        const returned = await this.failures.fail(chain, payout, { reason, actor, action: 'chain.cold_payout_failed' }, tx);
        if (!returned) throw new ConflictError('This withdrawal is no longer approved: nothing was returned.');
        const stored = (await this.payouts.byTransaction(transactionId, tx))!;
        const view = await this.payouts.withdrawalView(transactionId, tx);
        return { dto: this.toDto(stored, view?.token ?? chain.nativeCoins[0], view?.symbol ?? view?.token ?? chain.nativeCoins[0], view?.email ?? null) };
      },
      1,
    );
    if ('notDue' in outcome) throw new ConflictError(outcome.notDue);
    return outcome.dto;
  }

  /** Gives back what a prepared transaction reserved; 409 saying why not (it may be on the chain), 503 when the node is down. */
  private async release(side: ColdWallet, prepared: { unsignedTx: string; feeBase: bigint }, tx: Tx): Promise<void> {
    await side.release(prepared, tx).catch((error: unknown) => {
      if (error instanceof ColdReleaseRefusal) throw new ConflictError(error.message);
      throw nodeDown(error);
    });
  }

  private async hold(chain: ConnectedChain, payout: PayoutRecord, reason: string, tx: Tx): Promise<void> {
    await this.payouts.update(payout, { state: 'awaiting_cold_signature', coldReason: reason, lastError: null }, chain.nativeDecimals, tx);
    this.logger.warn(`Withdrawal ${payout.transactionId} on ${chain.network} waits for a cold signature: ${reason}`);
  }

  /** Why `payout` may not be paid hot (a limit it passes), or undefined. */
  private async aboveHotLimits(chain: ConnectedChain, payout: PayoutRecord, tx: Tx): Promise<string | undefined> {
    const { hotLimit, hotDailyLimit } = chain.hotCold ?? {};
    if (!hotLimit && !hotDailyLimit) return undefined;
    const decimals = chain.nativeDecimals;
    const amount = BigInt(payout.amountBase);
    const symbol = await this.payouts.symbolOf(chain.nativeCoins[0], tx);
    if (hotLimit && amount > decimalToBase(hotLimit, decimals)) return `above the hot limit of ${hotLimit} ${symbol} per payout`;
    if (hotDailyLimit) {
      const paid = await this.cold.hotSignedSince(chain.network, new Date(Date.now() - DAY_MS), tx);
      if (paid + amount > decimalToBase(hotDailyLimit, decimals)) {
        return `the hot wallet paid ${baseToFixed(paid, decimals)} ${symbol} over the last 24 hours: this payment would pass its daily limit of ${hotDailyLimit} ${symbol}`;
      }
    }
    return undefined;
  }

  /** The withdrawal's payout, row-locked, waiting for its cold signature; 404 or 409 saying why not. */
  private async awaitingSignature(transactionId: string, tx: Tx): Promise<PayoutRecord> {
    const payout = /^[0-9a-f-]{36}$/i.test(transactionId) ? await this.cold.lockByTransaction(transactionId, tx) : undefined;
    if (!payout) throw new NotFoundError('This withdrawal has no payment on the chain (yet).');
    if (payout.state !== 'awaiting_cold_signature') {
      throw new ConflictError(`This withdrawal is not waiting for a cold signature: its payment is ${payout.state.replace(/_/g, ' ')}.`);
    }
    return payout;
  }

  private coldSideFor(payout: PayoutRecord): { chain: ConnectedChain; side: ColdWallet } {
    const chain = this.chains.get(payout.network);
    const side = this.sides.get(payout.network);
    if (!chain || !side) throw new ConflictError(`${payout.network} has no cold side configured (CHAIN_<NETWORK>_COLD_WALLET or _COLD_ADDRESS).`);
    return { chain, side };
  }

  /**
   * The approved payment, re-read from the database as the hot signer does. A withdrawal no longer approved (rejected
   * or voided before its transaction was handed out) has nothing due: its payout row goes, as on the hot path.
   */
  private async approvedPayment(chain: ConnectedChain, payout: PayoutRecord, tx: Tx): Promise<ApprovedPayment | { notDue: string }> {
    const request = { transactionId: payout.transactionId, network: payout.network, address: payout.address, amountBase: BigInt(payout.amountBase) };
    try {
      return await readApprovedPayment(request, chain, tx, chain.family === 'evm' ? sameAddress : undefined);
    } catch (error) {
      if (!(error instanceof SignerRefusal)) throw error;
      if (error.notApproved && !payout.unsignedTx) {
        await this.payouts.remove(payout.id, tx);
        return { notDue: `Nothing is due for this withdrawal any more: ${error.message}.` };
      }
      throw new ConflictError(`This withdrawal cannot be paid from the cold side: ${error.message}.`);
    }
  }

  private toDto(payout: PayoutRecord, token: string, symbol: string, userEmail: string | null): ColdPayoutDto {
    const decimals = this.chains.get(payout.network)?.nativeDecimals ?? 8;
    const fee = payout.feeBase ?? payout.unsignedFeeBase;
    return {
      transactionId: payout.transactionId,
      network: payout.network,
      token,
      symbol: symbol.toUpperCase(),
      userEmail,
      address: payout.address,
      coinAmount: baseToFixed(BigInt(payout.amountBase), decimals),
      state: payout.state,
      reason: payout.coldReason ?? '',
      prepared: payout.unsignedTx !== null,
      txHash: payout.txid,
      fee: fee === null ? null : baseToFixed(BigInt(fee), decimals),
      lastError: payout.lastError,
      createdAt: payout.createdAt.toISOString(),
    };
  }
}

/** A node that did not answer while preparing or checking: nothing was stored; the admin tries again. */
function nodeDown(error: unknown): unknown {
  return error instanceof ChainRpcError ? new ServiceUnavailableError(`The node could not be reached or refused the call: ${error.message}`) : error;
}
