import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DepositHoldReleasedDto, DepositHoldRoutes, HeldDepositDto, PendingApprovalDto, ReleaseDepositHoldDto } from '@coinpurse/contract';
import type { FastifyReply } from 'fastify';
import { AdminAccess } from '../../common/access.decorator';
import { type Actor, CurrentActor } from '../../common/principal';
import { answer } from '../approvals/approval-gate.service';
import { DepositHoldsService } from './deposit-holds.service';

@ApiTags('admin-chain')
@Controller()
export class DepositHoldsController {
  constructor(private readonly holds: DepositHoldsService) {}

  @Get(DepositHoldRoutes.holds)
  @AdminAccess('read')
  @ApiOperation({ summary: 'Chain deposits held off the balance (above the deposit limit, or from a sanctioned address)' })
  @ApiOkResponse({ type: [HeldDepositDto], description: 'Confirmed deposits held, oldest first (at most 200).' })
  getDepositHolds(): Promise<HeldDepositDto[]> {
    return this.holds.list();
  }

  @Post(DepositHoldRoutes.release)
  @HttpCode(200)
  @AdminAccess('operate')
  @ApiOperation({ summary: 'Release a held chain deposit to the customer' })
  @ApiOkResponse({
    type: DepositHoldReleasedDto,
    description:
      "Credits the held amount to the customer (deposits platform account → customer), approves its History row, notifies and mails the customer and writes an audit row with the reason, in one call — whatever the customer's limit.",
  })
  @ApiAcceptedResponse({
    type: PendingApprovalDto,
    description:
      'Four-eyes: it adds to what is owed to a customer, so at or above APPROVAL_THRESHOLD_USD a second admin must approve it; nothing is applied yet.',
  })
  @ApiConflictResponse({ description: 'Not held any more, its block was orphaned, or its History row was settled by hand.' })
  @ApiNotFoundResponse({ description: 'No held deposit has this id.' })
  releaseDepositHold(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: ReleaseDepositHoldDto,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<DepositHoldReleasedDto | PendingApprovalDto> {
    return answer(response, this.holds.release(actor, id, body));
  }
}
