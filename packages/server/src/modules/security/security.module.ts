import { Global, Module } from '@nestjs/common';
import { AdminSessionsController, SessionsController, TwoFactorController } from './security.controller';
import { SecurityMailService } from './security-mail.service';
import { SessionsPurgeService } from './sessions-purge.service';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { StepUpService } from './step-up.service';
import { TwoFactorRepository } from './two-factor.repository';
import { TwoFactorService } from './two-factor.service';

/** Sessions, two-factor sign-in, step-up and security mails; global so any service can inject StepUpService. */
@Global()
@Module({
  controllers: [TwoFactorController, SessionsController, AdminSessionsController],
  providers: [SessionsRepository, SessionsService, SessionsPurgeService, TwoFactorRepository, TwoFactorService, StepUpService, SecurityMailService],
  exports: [SessionsService, TwoFactorService, StepUpService, SecurityMailService],
})
export class SecurityModule {}
