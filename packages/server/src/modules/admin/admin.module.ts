import { Module } from '@nestjs/common';
import { AdminAuditController, AdminDashboardController, AdminNotificationsController, AdminUsersController } from './admin.controller';
import { AdminRepository } from './admin.repository';
import { AdminService } from './admin.service';

@Module({
  controllers: [AdminUsersController, AdminNotificationsController, AdminAuditController, AdminDashboardController],
  providers: [AdminRepository, AdminService],
})
export class AdminModule {}
