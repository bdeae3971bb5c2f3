import { Module } from '@nestjs/common';
import { ApprovalGate } from './approval-gate.service';
import { ApprovalsRepository } from './approvals.repository';

/**
 * Four-eyes approval of admin money actions: the gate that holds an action for a second admin (ApprovalGate) and the
 * stored requests. Below the modules whose actions it gates (admin, chain), so neither imports the other for it; the
 * second admin's decision, which applies each kind of action, is admin's (ApprovalDecisionsService).
 */
@Module({
  providers: [ApprovalGate, ApprovalsRepository],
  exports: [ApprovalGate, ApprovalsRepository],
})
export class ApprovalsModule {}
