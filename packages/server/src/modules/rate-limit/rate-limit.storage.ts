import { Injectable } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { RateLimitRepository } from './rate-limit.repository';

/**
 * `@nestjs/throttler` storage in the database (PostgreSQL or PGlite), so every instance on one database shares the
 * same counters: 10 attempts means 10 in all, not 10 per instance.
 */
@Injectable()
export class DatabaseThrottlerStorage implements ThrottlerStorage {
  constructor(private readonly counters: RateLimitRepository) {}

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    const counter = await this.counters.hit(`${throttlerName}:${key}`, ttl, limit, blockDuration);
    return {
      totalHits: counter.hits,
      // The throttler reports these in seconds (Retry-After and the reset headers).
      timeToExpire: Math.ceil(counter.windowMs / 1000),
      isBlocked: counter.blockMs > 0,
      timeToBlockExpire: Math.ceil(counter.blockMs / 1000),
    };
  }
}
