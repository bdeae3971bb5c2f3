import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { WalletModule } from '../wallet/wallet.module';
import { AdminAuditController, AdminDashboardController, AdminNotificationsController, AdminUsersController } from './admin.controller';
import { AdminRepository } from './admin.repository';
import { AdminService } from './admin.service';
import { ApprovalGateModule } from './approval-gate.module';
import { AdminAdminsController, AdminApprovalsController, AdminExportsController, AdminUserDetailController } from './admins.controller';
import { AdminsRepository } from './admins.repository';
import { AdminsService } from './admins.service';
import { ApprovalsService } from './approvals.service';
import { ExportsRepository } from './exports.repository';
import { ExportsService } from './exports.service';

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
    AdminExportsController,
  ],
  providers: [AdminRepository, AdminService, AdminsRepository, AdminsService, ApprovalsService, ExportsRepository, ExportsService],
})
export class AdminModule {}
