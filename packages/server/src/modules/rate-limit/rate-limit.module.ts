import { Module } from '@nestjs/common';
import { RateLimitPurgeService } from './rate-limit-purge.service';
import { RateLimitRepository } from './rate-limit.repository';
import { DatabaseThrottlerStorage } from './rate-limit.storage';

/** The shared rate-limit store (a table) and its purge job; the throttler options take the storage from here. */
@Module({
  providers: [RateLimitRepository, DatabaseThrottlerStorage, RateLimitPurgeService],
  exports: [DatabaseThrottlerStorage],
})
export class RateLimitModule {}
