import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { ApprovalGate } from './approval-gate.service';
import { ApprovalsRepository } from './approvals.repository';

/** The four-eyes gate, used by the wallet's admin money routes; the approvals screen lives in the admin module. */
@Module({
  imports: [LedgerModule],
  providers: [ApprovalGate, ApprovalsRepository],
  exports: [ApprovalGate, ApprovalsRepository],
})
export class ApprovalGateModule {}
