import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { AdminAuditController, AdminDashboardController, AdminNotificationsController, AdminUsersController } from './admin.controller';
import { AdminRepository } from './admin.repository';
import { AdminService } from './admin.service';

@Module({
  imports: [LedgerModule],
  controllers: [AdminUsersController, AdminNotificationsController, AdminAuditController, AdminDashboardController],
  providers: [AdminRepository, AdminService],
})
export class AdminModule {}
