import { Global, Module } from '@nestjs/common';
import { ApiKeyAuthenticator } from '../../common/access.guard';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { DatabaseApiKeyAuthenticator } from './api-key-authenticator';
import { AdminApiKeysController, ApiKeysController } from './api-keys.controller';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

/** Integrators' API keys; global because the access guard (auth module) checks keys through ApiKeyAuthenticator. */
@Global()
@Module({
  imports: [RateLimitModule],
  controllers: [ApiKeysController, AdminApiKeysController],
  providers: [ApiKeysRepository, ApiKeysService, { provide: ApiKeyAuthenticator, useClass: DatabaseApiKeyAuthenticator }],
  exports: [ApiKeyAuthenticator],
})
export class ApiKeysModule {}
