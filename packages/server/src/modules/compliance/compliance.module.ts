import { Global, Module } from '@nestjs/common';
import { ApprovalsModule } from '../approvals/approvals.module';
import { AccountFreezesRepository } from './account-freezes.repository';
import { AccountFreezesService } from './account-freezes.service';
import { AccountFreezesController, SanctionsController } from './compliance.controller';
import { SanctionsListCache } from './sanctions-list.cache';
import { SanctionsRepository } from './sanctions.repository';
import { SanctionsService } from './sanctions.service';

/**
 * Compliance (issue 35): frozen accounts and sanctions screening. Global: the wallet, the address book, the chain
 * watcher and the back office consult it; it imports only the four-eyes gate below it (audit and notifications are global).
 */
@Global()
@Module({
  imports: [ApprovalsModule],
  controllers: [AccountFreezesController, SanctionsController],
  providers: [AccountFreezesRepository, AccountFreezesService, SanctionsRepository, SanctionsListCache, SanctionsService],
  exports: [AccountFreezesService, SanctionsService],
})
export class ComplianceModule {}
