import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AllExceptionsFilter } from './common/http-exception.filter';
import { RequestInputInterceptor } from './common/json-shape.interceptor';
import type { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import type { DatabaseHandle } from './db/database';
import { DatabaseModule } from './db/database.module';
import { AuditModule } from './modules/audit/audit.module';
import { authThrottleOptions } from './modules/auth/auth-throttle';
import { AuthModule } from './modules/auth/auth.module';
import { HealthModule } from './modules/health/health.module';
import { RateLimitModule } from './modules/rate-limit/rate-limit.module';
import { DatabaseThrottlerStorage } from './modules/rate-limit/rate-limit.storage';
import { FEATURE_MODULES } from './modules/feature-modules';
import { LoggingModule } from './modules/observability/logging';
import { ObservabilityModule } from './modules/observability/observability.module';
import pino, { type Logger as PinoInstance } from 'pino';

@Module({})
export class AppModule {
  /** `rootLogger`: the pino logger of this app (created by createApp); absent, logs are dropped (OpenAPI generation). */
  static register(config: AppConfig, database: DatabaseHandle, rootLogger?: PinoInstance): DynamicModule {
    return {
      module: AppModule,
      imports: [
        LoggingModule.register(rootLogger ?? pino({ level: 'silent' })),
        ObservabilityModule,
        ConfigModule.register(config),
        DatabaseModule.register(database),
        ThrottlerModule.forRootAsync({
          imports: [RateLimitModule],
          inject: [DatabaseThrottlerStorage],
          useFactory: (storage: DatabaseThrottlerStorage) => authThrottleOptions(config.authRateLimitPerMinute, storage),
        }),
        AuditModule,
        AuthModule,
        HealthModule,
        ...FEATURE_MODULES,
      ],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        // Before anything walks the body (idempotency hashing, uploads, the validation pipe): its shape, then NUL bytes.
        { provide: APP_INTERCEPTOR, useClass: RequestInputInterceptor },
      ],
    };
  }
}
