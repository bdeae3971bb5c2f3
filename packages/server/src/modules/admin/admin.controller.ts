import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  AuditPageDto,
  AuditQueryDto,
  BackOfficeRoutes,
  BroadcastNotificationDto,
  DashboardDto,
  NotificationSentDto,
  SendNotificationDto,
  UserDeletedDto,
} from '@coinpurse/contract';
import { AdminAccess } from '../../common/access.decorator';
import { type Actor, CurrentActor } from '../../common/principal';
import { AdminService } from './admin.service';

@ApiTags('admin-users')
@Controller(BackOfficeRoutes.prefix)
export class AdminUsersController {
  constructor(private readonly admin: AdminService) {}

  @Delete(BackOfficeRoutes.deleteUser)
  @AdminAccess('operate')
  @ApiOkResponse({
    type: UserDeletedDto,
    description: 'Deactivates the customer: sign-in refused, sessions revoked, hidden from lists; balances, ledger and history kept.',
  })
  @ApiNotFoundResponse({ description: 'No such active customer.' })
  @ApiConflictResponse({ description: 'The account is an administrator (or the caller).' })
  deleteUser(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<UserDeletedDto> {
    return this.admin.deleteUser(actor, id);
  }
}

@ApiTags('admin-notifications')
@Controller(BackOfficeRoutes.prefix)
export class AdminNotificationsController {
  constructor(private readonly admin: AdminService) {}

  @Post(BackOfficeRoutes.sendNotification)
  @HttpCode(200)
  @AdminAccess('operate')
  @ApiOkResponse({ type: NotificationSentDto })
  @ApiNotFoundResponse({ description: 'No such active customer.' })
  sendNotification(@CurrentActor() actor: Actor, @Param('userId') userId: string, @Body() body: SendNotificationDto): Promise<NotificationSentDto> {
    return this.admin.sendNotification(actor, userId, body);
  }

  @Post(BackOfficeRoutes.broadcast)
  @HttpCode(200)
  @AdminAccess('operate')
  @ApiOkResponse({ type: NotificationSentDto, description: 'One notification to every active customer; `sent` is how many.' })
  broadcastNotification(@CurrentActor() actor: Actor, @Body() body: BroadcastNotificationDto): Promise<NotificationSentDto> {
    return this.admin.broadcast(actor, body);
  }
}

@ApiTags('admin-audit')
@Controller(BackOfficeRoutes.prefix)
export class AdminAuditController {
  constructor(private readonly admin: AdminService) {}

  @Get(BackOfficeRoutes.audit)
  @AdminAccess('read')
  @ApiOkResponse({
    type: AuditPageDto,
    description: 'Newest first. Filters: actor (admin id), action, targetType, targetId. Pass nextCursor as cursor for the next page.',
  })
  getAuditLog(@Query() query: AuditQueryDto): Promise<AuditPageDto> {
    return this.admin.auditLog(query);
  }
}

@ApiTags('admin')
@Controller(BackOfficeRoutes.prefix)
export class AdminDashboardController {
  constructor(private readonly admin: AdminService) {}

  @Get(BackOfficeRoutes.dashboard)
  @AdminAccess('read')
  @ApiOkResponse({ type: DashboardDto, description: 'Counts, liabilities per token and the ledger check.' })
  getDashboard(): Promise<DashboardDto> {
    return this.admin.dashboard();
  }
}
