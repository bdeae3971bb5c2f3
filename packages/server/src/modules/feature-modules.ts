import type { Type } from '@nestjs/common';
import { MarketModule } from './market/market.module';
import { NotificationsModule } from './notifications/notifications.module';

/**
 * The feature modules (market, ledger/wallet, notifications, tickets, admin, ...), registered in one list so
 * each can be added without touching the app module. Append one line per module.
 */
export const FEATURE_MODULES: Type<unknown>[] = [
  MarketModule,
  NotificationsModule,
];
