import type { Type } from '@nestjs/common';
import { MarketModule } from './market/market.module';
import { NotificationsModule } from './notifications/notifications.module';
import { MailModule } from './mail/mail.module';
import { PasswordResetModule } from './password-reset/password-reset.module';
import { TicketsModule } from './tickets/tickets.module';
import { AdminModule } from './admin/admin.module';
import { WalletModule } from './wallet/wallet.module';
import { TokensModule } from './tokens/tokens.module';
import { UploadsModule } from './stored-images/uploads.module';
import { NetworksModule } from './networks/networks.module';
import { AddressBookModule } from './address-book/address-book.module';
import { SecurityModule } from './security/security.module';
import { ReferenceDataModule } from './reference-data/reference-data.module';
import { ChainModule } from './chain/chain.module';
import { PayoutsModule } from './payouts/payouts.module';
import { ReservesModule } from './reserves/reserves.module';
import { SweepsModule } from './sweeps/sweeps.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { VerificationModule } from './verification/verification.module';
import { FeesModule } from './fees/fees.module';

/**
 * The feature modules (market, ledger/wallet, notifications, tickets, admin, ...), registered in one list so
 * each can be added without touching the app module. Append one line per module.
 */
export const FEATURE_MODULES: Type<unknown>[] = [
  MarketModule,
  NotificationsModule,
  MailModule,
  PasswordResetModule,
  TicketsModule,
  AdminModule,
  WalletModule,
  TokensModule,
  UploadsModule,
  NetworksModule,
  AddressBookModule,
  SecurityModule,
  ReferenceDataModule,
  ChainModule,
  PayoutsModule,
  SweepsModule,
  ReservesModule,
  ApiKeysModule,
  WebhooksModule,
  VerificationModule,
  FeesModule,
];
