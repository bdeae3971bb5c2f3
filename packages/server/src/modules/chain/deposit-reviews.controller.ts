import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChainDepositReviewDto, DepositReviewResolvedDto, DepositReviewRoutes, PendingApprovalDto, ResolveDepositReviewDto } from '@coinpurse/contract';
import type { FastifyReply } from 'fastify';
import { AdminAccess } from '../../common/access.decorator';
import { type Actor, CurrentActor } from '../../common/principal';
import { answer } from '../approvals/approval-gate.service';
import { DepositReviewsService } from './deposit-reviews.service';

@ApiTags('admin-chain')
@Controller()
export class DepositReviewsController {
  constructor(private readonly reviews: DepositReviewsService) {}

  @Get(DepositReviewRoutes.reviews)
  @AdminAccess('read')
  @ApiOperation({ summary: 'Chain deposits orphaned after credit: waiting for a decision, and decided' })
  @ApiOkResponse({
    type: [ChainDepositReviewDto],
    description:
      'Credited deposits whose block was orphaned by a reorganisation (flagged, never debited by themselves): open ones first, newest first (at most 200).',
  })
  getDepositReviews(): Promise<ChainDepositReviewDto[]> {
    return this.reviews.list();
  }

  @Post(DepositReviewRoutes.takeBack)
  @HttpCode(200)
  @AdminAccess('operate')
  @ApiOperation({ summary: 'Take back a chain deposit orphaned after credit (reverse its credit)' })
  @ApiOkResponse({
    type: DepositReviewResolvedDto,
    description:
      'Moves the credited amount from the customer back to the deposits platform account, drops the deposit, rejects its History row with the reason, notifies and mails the customer and writes an audit row, in one call.',
  })
  @ApiAcceptedResponse({
    type: PendingApprovalDto,
    description:
      'Four-eyes: it takes from what is owed to a customer, so at or above APPROVAL_THRESHOLD_USD (alone or over the window) a second admin must approve it; nothing is applied yet.',
  })
  @ApiConflictResponse({
    description: 'The customer no longer holds the amount, the review is already resolved, or its History row was settled by hand: nothing changes.',
  })
  @ApiNotFoundResponse({ description: 'No deposit flagged for review has this id.' })
  takeBackDeposit(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: ResolveDepositReviewDto,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<DepositReviewResolvedDto | PendingApprovalDto> {
    return answer(response, this.reviews.takeBack(actor, id, body));
  }

  @Post(DepositReviewRoutes.keep)
  @HttpCode(200)
  @AdminAccess('operate')
  @ApiOperation({ summary: 'Keep a chain deposit orphaned after credit (accept the loss)' })
  @ApiOkResponse({
    type: DepositReviewResolvedDto,
    description: 'The customer keeps the credit; the review is resolved with the reason and an audit row. No money moves.',
  })
  @ApiConflictResponse({ description: 'The review is already resolved.' })
  @ApiNotFoundResponse({ description: 'No deposit flagged for review has this id.' })
  keepDeposit(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: ResolveDepositReviewDto): Promise<DepositReviewResolvedDto> {
    return this.reviews.keep(actor, id, body);
  }
}
