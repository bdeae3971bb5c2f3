import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { WalletModule } from '../wallet/wallet.module';
import { AdminAuditController, AdminDashboardController, AdminNotificationsController, AdminUsersController } from './admin.controller';
import { AdminRepository } from './admin.repository';
import { AdminService } from './admin.service';
import { AdminTransactionsController, AdminUserBalancesController } from './admin-transactions.controller';
import { AdminLedgerViewsService } from './admin-ledger-views.service';
import { AdminMoneySupport } from './admin-money-support';
import { AdminDepositsService } from './admin-deposits.service';
import { BalanceAdjustmentsService } from './balance-adjustments.service';
import { VerificationModule } from '../verification/verification.module';
import { ApprovalsModule } from '../approvals/approvals.module';
import { AdminAdminsController, AdminApprovalsController, AdminExportsController, AdminUserDetailController } from './admins.controller';
import { AdminsRepository } from './admins.repository';
import { AdminsService } from './admins.service';
import { ApprovalDecisionsService } from './approval-decisions.service';
import { ExportsRepository } from './exports.repository';
import { ExportsService } from './exports.service';
import { TransactionStatusService } from './transaction-status.service';
import { TransactionVoidsService } from './transaction-voids.service';

@Module({
  imports: [LedgerModule, WalletModule, ApprovalsModule, VerificationModule],
  controllers: [
    AdminTransactionsController,
    AdminUserBalancesController,
    AdminUsersController,
    AdminNotificationsController,
    AdminAuditController,
    AdminDashboardController,
    AdminAdminsController,
    AdminApprovalsController,
    AdminUserDetailController,
    AdminExportsController,
  ],
  providers: [
    AdminRepository,
    AdminService,
    AdminsRepository,
    AdminsService,
    AdminLedgerViewsService,
    AdminMoneySupport,
    AdminDepositsService,
    TransactionStatusService,
    TransactionVoidsService,
    BalanceAdjustmentsService,
    ApprovalDecisionsService,
    ExportsRepository,
    ExportsService,
  ],
})
export class AdminModule {}
