import { Global, Module } from '@nestjs/common';
import { IdempotencyInterceptor, IdempotencyService } from './idempotency';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';

/** The double-entry ledger and idempotency keys: the only way money moves. */
@Global()
@Module({
  providers: [LedgerRepository, LedgerService, IdempotencyService, IdempotencyInterceptor],
  exports: [LedgerService, IdempotencyService, IdempotencyInterceptor],
})
export class LedgerModule {}
