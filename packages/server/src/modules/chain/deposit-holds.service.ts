import { Inject, Injectable } from '@nestjs/common';
import type { DepositHoldReleasedDto, HeldDepositDto, PendingApprovalDto } from '@coinpurse/contract';
import { ConflictError, NotFoundError } from '../../common/errors';
import type { Actor } from '../../common/principal';
import { DATABASE, type Database } from '../../db/database';
import { inTransaction } from '../../db/in-transaction';
import { type Applying, requireBoundLines } from '../approvals/applying';
import { ApprovalGate } from '../approvals/approval-gate.service';
import type { DepositHoldReleases } from '../approvals/deposit-hold-releases';
import { customer, LedgerService, LEASED_SHARD, platform, transfer } from '../ledger/ledger.service';
import { MONEY_CODES, type MoneyRefusal } from '../ledger/money-errors';
import { toMoney, usdNumber } from '../ledger/money';
import { holdWordsForAdmins } from '../wallet/hold-words';
import { describe as describeAmount } from '../wallet/wallet-common';
import { RELEASE_DEPOSIT_HOLD } from './chain-functions';
import { chainDepositFields } from './chain-deposit-fields';
import { DepositCreditsService } from './deposit-credits.service';
import { DepositHoldsRepository, type HeldDepositRecord } from './deposit-holds.repository';
import { UUID_TEXT } from '../../common/page-cursor';

const NOT_FOUND = 'No held deposit has this id.';

function toHeldDto(row: HeldDepositRecord): HeldDepositDto {
  return {
    ...chainDepositFields(row),
    userEmail: row.userEmail,
    usdAmount: usdNumber(row.usdAmount ?? '0'),
    hold: row.hold,
    holdText: holdWordsForAdmins(row.hold),
    heldAt: row.heldAt?.toISOString() ?? null,
  };
}

/**
 * Held chain deposits in the back office (drizzle/0063_deposit_holds.sql): the list, and an admin's release with a
 * reason — credited to the customer by `cp_release_deposit_hold`, audited, and with four-eyes on a second admin's
 * request at or above APPROVAL_THRESHOLD_USD (it adds to what is owed to a customer, like an admin's deposit).
 */
@Injectable()
export class DepositHoldsService implements DepositHoldReleases {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly holds: DepositHoldsRepository,
    private readonly credits: DepositCreditsService,
    private readonly ledger: LedgerService,
    private readonly gate: ApprovalGate,
  ) {}

  async list(): Promise<HeldDepositDto[]> {
    return (await this.holds.list({ limit: 200 })).map(toHeldDto);
  }

  private refusal(refusal: MoneyRefusal): Error | undefined {
    if (refusal.code !== MONEY_CODES.depositNotHeld) return undefined;
    if (refusal.detail === 'not found') return new NotFoundError(NOT_FOUND);
    if (refusal.detail === 'not in the chain')
      return new ConflictError('Its block was orphaned by a reorganisation: it is credited or held again once it is mined and confirmed.');
    return new ConflictError(`This deposit is not held any more (it is ${refusal.detail} now).`);
  }

  async release(actor: Actor, depositId: string, input: { reason: string }, applying?: Applying): Promise<DepositHoldReleasedDto | PendingApprovalDto> {
    const [deposit] = UUID_TEXT.test(depositId) ? await this.holds.list({ id: depositId.toLowerCase(), limit: 1 }, applying?.tx) : [];
    if (!deposit) throw new NotFoundError(NOT_FOUND);
    const reason = input.reason.trim();
    const amountText = describeAmount(deposit.amount, deposit.token, deposit.symbol ?? deposit.token);
    const call = this.credits.releaseCall(deposit, actor, reason);
    const options = { ...call.options, refuse: (refusal: MoneyRefusal) => this.refusal(refusal) };
    const legs = transfer(platform('deposits', deposit.token, LEASED_SHARD), customer(deposit.userId, deposit.token), toMoney(deposit.amount));
    const done = { message: `${amountText} was released to ${deposit.userEmail}.` };
    const settledByHand = () => new ConflictError('Its History row was settled by hand meanwhile (approved, rejected or deleted): nothing more was credited.');

    if (applying) {
      requireBoundLines(applying, legs);
      if ((await this.ledger.runIn(applying.tx, RELEASE_DEPOSIT_HOLD, call.args, options)) !== true) throw settledByHand();
      await call.publish(applying.tx);
      return done;
    }
    let moved: unknown;
    if (this.gate.decides(actor)) {
      const result = await inTransaction(this.db, async (tx) => {
        const pending = await this.gate.holdIfGated(
          actor,
          legs,
          {
            action: 'release-deposit-hold',
            userId: deposit.userId,
            transactionId: deposit.transactionId,
            payload: { depositId: deposit.id, reason },
            basis: {},
            usd: toMoney(deposit.usdAmount ?? '0'),
            summary: `Release the held chain deposit of ${amountText} to ${deposit.userEmail} (${holdWordsForAdmins(deposit.hold).toLowerCase()})`,
            reason,
          },
          tx,
        );
        if (pending) return { pending };
        return { moved: await this.ledger.runIn(tx, RELEASE_DEPOSIT_HOLD, call.args, options) };
      });
      if (result.pending) return result.pending;
      moved = result.moved;
    } else {
      moved = await this.ledger.run(RELEASE_DEPOSIT_HOLD, call.args, options);
    }
    if (moved !== true) throw settledByHand();
    call.announce();
    return done;
  }
}
