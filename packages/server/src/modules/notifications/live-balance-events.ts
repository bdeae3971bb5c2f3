import { Injectable } from '@nestjs/common';
import type { Executor } from '../../db/database';
import type { BalanceChange, LedgerEvents } from '../ledger/ledger-events';
import { type LiveEvent, LiveEventsService } from './live-events.service';

/** The ledger's balance changes as `balance` live events to the customers' streams (clients refetch on each). */
@Injectable()
export class LiveBalanceEvents implements LedgerEvents {
  constructor(private readonly live: LiveEventsService) {}

  async publishBalanceChanges(changes: BalanceChange[], executor: Executor): Promise<void> {
    await this.live.publishMany(changes.map(balanceEvent), executor);
  }

  announceBalanceChanges(changes: BalanceChange[]): void {
    this.live.announce(changes.map(balanceEvent));
  }
}

function balanceEvent({ userId, token }: BalanceChange): { userId: string; event: LiveEvent } {
  return { userId, event: { type: 'balance', data: { token } } };
}
