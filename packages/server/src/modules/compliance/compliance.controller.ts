import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AccountFreezeChangedDto, AccountFreezeRequestDto, ComplianceAdminRoutes, PendingApprovalDto } from '@coinpurse/contract';
import type { FastifyReply } from 'fastify';
import { AdminAccess } from '../../common/access.decorator';
import { type Actor, CurrentActor } from '../../common/principal';
import { answer } from '../approvals/approval-gate.service';
import { AccountFreezesService } from './account-freezes.service';

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
