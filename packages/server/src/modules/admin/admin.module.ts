import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { WalletModule } from '../wallet/wallet.module';
import { AdminAuditController, AdminDashboardController, AdminNotificationsController, AdminUsersController } from './admin.controller';
import { AdminRepository } from './admin.repository';
import { AdminService } from './admin.service';
import { ApprovalGateModule } from './approval-gate.module';
import { AdminAdminsController, AdminApprovalsController, AdminUserDetailController } from './admins.controller';
import { AdminsRepository } from './admins.repository';
import { AdminsService } from './admins.service';
import { ApprovalsService } from './approvals.service';

@Module({
  imports: [LedgerModule, WalletModule, ApprovalGateModule],
  controllers: [
    AdminUsersController,
    AdminNotificationsController,
    AdminAuditController,
    AdminDashboardController,
    AdminAdminsController,
    AdminApprovalsController,
    AdminUserDetailController,
  ],
  providers: [AdminRepository, AdminService, AdminsRepository, AdminsService, ApprovalsService],
})
export class AdminModule {}
