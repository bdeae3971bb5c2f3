import { Global, Module } from '@nestjs/common';
import { IdempotencyInterceptor, IdempotencyService } from './idempotency';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';
import { MoneyCallLimitInterceptor, MoneyCallLimits } from './money-calls';

/** The double-entry ledger and idempotency keys: the only way money moves. */
@Global()
@Module({
  providers: [LedgerRepository, LedgerService, IdempotencyService, IdempotencyInterceptor, MoneyCallLimits, MoneyCallLimitInterceptor],
  exports: [LedgerService, IdempotencyService, IdempotencyInterceptor, MoneyCallLimits, MoneyCallLimitInterceptor],
})
export class LedgerModule {}
