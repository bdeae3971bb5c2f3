import { Global, Module } from '@nestjs/common';
import { ApprovalsModule } from '../approvals/approvals.module';
import { AccountFreezesRepository } from './account-freezes.repository';
import { AccountFreezesService } from './account-freezes.service';
import { AccountFreezesController } from './compliance.controller';

/**
 * Compliance (issue 35): frozen accounts and sanctions screening. Global: the wallet, the address book, the chain
 * watcher and the back office consult it; it imports only the four-eyes gate below it (audit and notifications are global).
 */
@Global()
@Module({
  imports: [ApprovalsModule],
  controllers: [AccountFreezesController],
  providers: [AccountFreezesRepository, AccountFreezesService],
  exports: [AccountFreezesService],
})
export class ComplianceModule {}
