import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  AccountFreezeChangedDto,
  AccountFreezeRequestDto,
  ComplianceAdminRoutes,
  PendingApprovalDto,
  SanctionsHitDto,
  SanctionsHitsQueryDto,
  SanctionsListDto,
  UploadSanctionsListDto,
} from '@coinpurse/contract';
import type { FastifyReply } from 'fastify';
import { AdminAccess } from '../../common/access.decorator';
import { type Actor, CurrentActor } from '../../common/principal';
import { answer } from '../approvals/approval-gate.service';
import { AccountFreezesService } from './account-freezes.service';
import { SanctionsService } from './sanctions.service';

const FOUR_EYES =
  'Four-eyes on (APPROVAL_THRESHOLD_USD above 0): nothing changes yet; another active administrator approves the request in /api/admin/approvals.';

@ApiTags('admin-compliance')
@Controller(ComplianceAdminRoutes.prefix)
export class AccountFreezesController {
  constructor(private readonly freezes: AccountFreezesService) {}

  @Post(ComplianceAdminRoutes.freeze)
  @HttpCode(200)
  @AdminAccess('operate')
  @ApiOkResponse({
    type: AccountFreezeChangedDto,
    description:
      'Freezes the customer (audited, the customer notified): sign-in, reading and deposits go on; sends, swaps and API-key calls needing ' +
      'trade or withdraw are refused with 403.',
  })
  @ApiAcceptedResponse({ type: PendingApprovalDto, description: FOUR_EYES })
  @ApiConflictResponse({ description: 'The account is already frozen.' })
  @ApiNotFoundResponse({ description: 'No such customer.' })
  freezeAccount(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: AccountFreezeRequestDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AccountFreezeChangedDto | PendingApprovalDto> {
    return answer(reply, this.freezes.freeze(actor, id, body.reason));
  }

  @Post(ComplianceAdminRoutes.unfreeze)
  @HttpCode(200)
  @AdminAccess('operate')
  @ApiOkResponse({ type: AccountFreezeChangedDto, description: 'Unfreezes the customer (audited, the customer notified).' })
  @ApiAcceptedResponse({ type: PendingApprovalDto, description: FOUR_EYES })
  @ApiConflictResponse({ description: 'The account is not frozen.' })
  @ApiNotFoundResponse({ description: 'No such customer.' })
  unfreezeAccount(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: AccountFreezeRequestDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AccountFreezeChangedDto | PendingApprovalDto> {
    return answer(reply, this.freezes.unfreeze(actor, id, body.reason));
  }
}

@ApiTags('admin-compliance')
@Controller(ComplianceAdminRoutes.prefix)
export class SanctionsController {
  constructor(private readonly sanctions: SanctionsService) {}

  @Get(ComplianceAdminRoutes.sanctions)
  @AdminAccess('read')
  @ApiOkResponse({ type: SanctionsListDto, description: 'The sanctions list in force: where it came from, when, how many addresses per network.' })
  getSanctionsList(): Promise<SanctionsListDto> {
    return this.sanctions.list();
  }

  @Put(ComplianceAdminRoutes.sanctions)
  @AdminAccess('operate')
  @ApiOkResponse({
    type: SanctionsListDto,
    description: 'Replaces the list in force (audited) until SANCTIONS_LIST_FILE changes again; every instance screens with it at once.',
  })
  @ApiBadRequestResponse({ description: 'A line could not be read (unknown network, no address): nothing was changed.' })
  uploadSanctionsList(@CurrentActor() actor: Actor, @Body() body: UploadSanctionsListDto): Promise<SanctionsListDto> {
    return this.sanctions.upload(actor, body.list);
  }

  @Get(ComplianceAdminRoutes.sanctionsHits)
  @AdminAccess('read')
  @ApiOkResponse({
    type: [SanctionsHitDto],
    description: 'What screening caught, newest first (500 at most): sends and address-book entries refused, deposits from a listed address.',
  })
  getSanctionsHits(@Query() query: SanctionsHitsQueryDto): Promise<SanctionsHitDto[]> {
    return this.sanctions.hits(query.kind);
  }
}
