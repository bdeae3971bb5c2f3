import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import {
  AdminAccountDto,
  AdminChangedDto,
  AdminTransactionQueryDto,
  ApprovalDecisionDto,
  ApprovalDto,
  ApprovalsQueryDto,
  AuditQueryDto,
  BackOfficeAdminRoutes,
  CreateAdminDto,
  PendingApprovalDto,
  RejectApprovalDto,
  UserDetailDto,
} from '@coinpurse/contract';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { AdminAccess } from '../../common/access.decorator';
import { type Actor, CurrentActor } from '../../common/principal';
import { answer } from '../approvals/approval-gate.service';
import { AdminsService } from './admins.service';
import { ApprovalDecisionsService } from './approval-decisions.service';
import { type CsvExport, ExportsService } from './exports.service';

@ApiTags('admin-admins')
@Controller(BackOfficeAdminRoutes.prefix)
export class AdminAdminsController {
  constructor(private readonly admins: AdminsService) {}

  @Get(BackOfficeAdminRoutes.admins)
  @AdminAccess('read')
  @ApiOkResponse({ type: [AdminAccountDto], description: 'Every administrator, active or deactivated, oldest first.' })
  getAdmins(): Promise<AdminAccountDto[]> {
    return this.admins.list();
  }

  @Post(BackOfficeAdminRoutes.admins)
  @AdminAccess('session-only')
  @ApiCreatedResponse({
    type: AdminChangedDto,
    description: 'Four-eyes off (APPROVAL_THRESHOLD_USD=0): adds an administrator (audited). It signs in at /login-admin.',
  })
  @ApiAcceptedResponse({
    type: PendingApprovalDto,
    description:
      'Four-eyes on: nothing is created yet; another active administrator approves the request in /api/admin/approvals (an admin added ' +
      'after a request cannot approve it). With one active administrator, the second one is added on the server (pnpm admin:add, or ADMIN_EMAIL).',
  })
  @ApiConflictResponse({ description: 'An account with this email already exists, or no other active administrator could approve the request.' })
  createAdmin(
    @CurrentActor() actor: Actor,
    @Body() body: CreateAdminDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AdminChangedDto | PendingApprovalDto> {
    return answer(reply, this.admins.create(actor, body));
  }

  @Delete(BackOfficeAdminRoutes.admin)
  @AdminAccess('session-only')
  @ApiOkResponse({ type: AdminChangedDto, description: 'Deactivates an administrator: sign-in refused, sessions revoked; its audit trail stays.' })
  @ApiConflictResponse({ description: 'Yourself, or the last active administrator.' })
  @ApiNotFoundResponse({ description: 'No such active administrator.' })
  deleteAdmin(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<AdminChangedDto> {
    return this.admins.deactivate(actor, id);
  }
}

@ApiTags('admin-approvals')
@Controller(BackOfficeAdminRoutes.prefix)
export class AdminApprovalsController {
  constructor(private readonly approvals: ApprovalDecisionsService) {}

  @Get(BackOfficeAdminRoutes.approvals)
  @AdminAccess('read')
  @ApiOkResponse({ type: [ApprovalDto], description: 'Four-eyes requests, newest first (at most 200); filter with status=pending.' })
  getApprovals(@Query() query: ApprovalsQueryDto): Promise<ApprovalDto[]> {
    return this.approvals.list(query);
  }

  @Post(BackOfficeAdminRoutes.approve)
  @HttpCode(200)
  @AdminAccess('session-only')
  @ApiOkResponse({
    type: ApprovalDecisionDto,
    description:
      'Applies the request exactly as made, once, in one transaction, with the usual ledger entry, notification and audit rows (naming both admins).',
  })
  @ApiForbiddenResponse({ description: 'The requester cannot approve their own request.' })
  @ApiConflictResponse({ description: 'Already decided, or no longer applicable (funds gone, status changed): it stays pending with the reason.' })
  @ApiNotFoundResponse({ description: 'No such request.' })
  approveRequest(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<ApprovalDecisionDto> {
    return this.approvals.approve(actor, id);
  }

  @Post(BackOfficeAdminRoutes.reject)
  @HttpCode(200)
  @AdminAccess('session-only')
  @ApiOkResponse({ type: ApprovalDecisionDto, description: 'Closes the request without changing anything (audited).' })
  @ApiConflictResponse({ description: 'Already decided.' })
  @ApiNotFoundResponse({ description: 'No such request.' })
  rejectRequest(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: RejectApprovalDto): Promise<ApprovalDecisionDto> {
    return this.approvals.reject(actor, id, body.reason);
  }
}

@ApiTags('admin-users')
@Controller(BackOfficeAdminRoutes.prefix)
export class AdminUserDetailController {
  constructor(private readonly admins: AdminsService) {}

  @Get(BackOfficeAdminRoutes.userDetail)
  @AdminAccess('read')
  @ApiOkResponse({ type: UserDetailDto, description: 'One customer: profile, balances, latest notifications, tickets, audit entries and approval requests.' })
  @ApiNotFoundResponse({ description: 'No such customer.' })
  getUserDetail(@Param('id') id: string): Promise<UserDetailDto> {
    return this.admins.userDetail(id);
  }
}

/** Streams a CSV export to the response; the generator is pulled as the client reads (bounded memory). */
/** Streams the export; a read that fails after the headers were sent closes the connection (Fastify's stream handling). */
async function sendCsv(reply: FastifyReply, csv: CsvExport): Promise<void> {
  await reply
    .header('Content-Type', 'text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${csv.filename}"`)
    .header('Cache-Control', 'no-store')
    .send(Readable.from(csv.chunks));
}

@ApiTags('admin-exports')
@Controller(BackOfficeAdminRoutes.prefix)
export class AdminExportsController {
  constructor(private readonly exports: ExportsService) {}

  @Get(BackOfficeAdminRoutes.exportUsers)
  @AdminAccess('read')
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'Every customer with a balance column per token held, streamed as CSV (audited).', schema: { type: 'string' } })
  async exportUsers(@CurrentActor() actor: Actor, @Res() response: FastifyReply): Promise<void> {
    await sendCsv(response, await this.exports.users(actor));
  }

  @Get(BackOfficeAdminRoutes.exportTransactions)
  @AdminAccess('read')
  @ApiProduces('text/csv')
  @ApiOkResponse({
    description: 'Transactions with the list filters (type, status, token, userId, search; limit and cursor ignored), oldest first, streamed as CSV (audited).',
    schema: { type: 'string' },
  })
  async exportAdminTransactions(@CurrentActor() actor: Actor, @Query() query: AdminTransactionQueryDto, @Res() response: FastifyReply): Promise<void> {
    await sendCsv(response, await this.exports.transactions(actor, query));
  }

  @Get(BackOfficeAdminRoutes.exportAudit)
  @AdminAccess('read')
  @ApiProduces('text/csv')
  @ApiOkResponse({
    description: 'The audit log with its filters (limit and cursor ignored), oldest first, streamed as CSV (audited).',
    schema: { type: 'string' },
  })
  async exportAuditLog(@CurrentActor() actor: Actor, @Query() query: AuditQueryDto, @Res() response: FastifyReply): Promise<void> {
    await sendCsv(response, await this.exports.auditLog(actor, query));
  }
}
