import { Global, Module } from '@nestjs/common';
import { LedgerEvents } from '../ledger/ledger-events';
import { LiveBalanceEvents } from './live-balance-events';
import { LiveEventsService } from './live-events.service';
import { NotificationsController } from './notifications.controller';
import { NotificationsRepository } from './notifications.repository';
import { NotificationsService } from './notifications.service';

@Global()
@Module({
  controllers: [NotificationsController],
  providers: [NotificationsRepository, NotificationsService, LiveEventsService, { provide: LedgerEvents, useClass: LiveBalanceEvents }],
  // LedgerEvents: the ledger's port for balance changes, bound here to the live event streams.
  exports: [NotificationsService, NotificationsRepository, LiveEventsService, LedgerEvents],
})
export class NotificationsModule {}
