import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiNotFoundResponse, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import {
  AssignVerificationDto,
  ErasedDto,
  PendingApprovalDto,
  RejectVerificationDto,
  UpdateLevelLimitsDto,
  VerificationAdminRoutes,
  VerificationDetailDto,
  VerificationLimitsDto,
  VerificationPageDto,
  VerificationsQueryDto,
} from '@coinpurse/contract';
import type { FastifyReply } from 'fastify';
import { AdminAccess } from '../../common/access.decorator';
import { type Actor, CurrentActor } from '../../common/principal';
import { answer } from '../approvals/approval-gate.service';
import { ErasureService } from './erasure.service';
import { VerificationLimitsService } from './verification-limits.service';
import { VerificationReviewService } from './verification-review.service';

@ApiTags('admin-verification')
@Controller(VerificationAdminRoutes.prefix)
export class VerificationAdminController {
  constructor(
    private readonly review: VerificationReviewService,
    private readonly limits: VerificationLimitsService,
    private readonly erasure: ErasureService,
  ) {}

  @Post(VerificationAdminRoutes.erase)
  @HttpCode(200)
  @AdminAccess('session-only')
  @ApiOkResponse({
    type: ErasedDto,
    description:
      'A closed account only (409 otherwise): documents, personal details, name, email, address book and two-factor deleted; its ledger entries stay under its id. Audited.',
  })
  @ApiNotFoundResponse({ description: 'No such customer.' })
  eraseUser(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<ErasedDto> {
    return this.erasure.erase(actor, id);
  }

  @Get(VerificationAdminRoutes.verifications)
  @AdminAccess('read')
  @ApiOkResponse({ type: VerificationPageDto, description: 'Newest first; ?status=in_review is the queue, ?userId= one customer’s history.' })
  getVerifications(@Query() query: VerificationsQueryDto): Promise<VerificationPageDto> {
    return this.review.list(query);
  }

  @Get(VerificationAdminRoutes.verification)
  @AdminAccess('read')
  @ApiOkResponse({ type: VerificationDetailDto, description: 'With the personal details decrypted and the documents’ admin-only paths.' })
  @ApiNotFoundResponse({ description: 'No such verification.' })
  getVerificationReview(@Param('id') id: string): Promise<VerificationDetailDto> {
    return this.review.detail(id);
  }

  @Get(VerificationAdminRoutes.document)
  @AdminAccess('session-only')
  @ApiProduces('image/png', 'image/jpeg', 'image/webp', 'image/gif')
  @ApiOkResponse({ description: 'The document’s image, decrypted for this answer: Cache-Control no-store; admins’ sessions only.' })
  @ApiNotFoundResponse({ description: 'No such document.' })
  async getVerificationDocument(@Param('id') id: string, @Param('documentId') documentId: string, @Res() reply: FastifyReply): Promise<void> {
    await this.review.sendDocument(id, documentId, reply);
  }

  @Post(VerificationAdminRoutes.assign)
  @HttpCode(200)
  @AdminAccess('operate')
  @ApiOkResponse({ type: VerificationDetailDto, description: 'Assigned to the reviewer (default: the caller). 409 once decided.' })
  assignVerification(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: AssignVerificationDto): Promise<VerificationDetailDto> {
    return this.review.assign(actor, id, body.adminId);
  }

  @Post(VerificationAdminRoutes.approve)
  @HttpCode(200)
  @AdminAccess('operate')
  @ApiOkResponse({ type: VerificationDetailDto, description: 'The customer’s level rises; they get a notification and a mail. 409 once decided.' })
  approveVerification(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<VerificationDetailDto> {
    return this.review.approve(actor, id);
  }

  @Post(VerificationAdminRoutes.reject)
  @HttpCode(200)
  @AdminAccess('operate')
  @ApiOkResponse({ type: VerificationDetailDto, description: 'The reason is shown to the customer, who may send again. 409 once decided.' })
  rejectVerification(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: RejectVerificationDto): Promise<VerificationDetailDto> {
    return this.review.reject(actor, id, body.reason);
  }

  @Get(VerificationAdminRoutes.limits)
  @AdminAccess('read')
  @ApiOkResponse({ type: VerificationLimitsDto })
  getVerificationLimits(): Promise<VerificationLimitsDto> {
    return this.limits.get();
  }

  @Put(VerificationAdminRoutes.limit)
  @AdminAccess('operate')
  @ApiOkResponse({ type: VerificationLimitsDto, description: 'Changed now (four-eyes off), audited.' })
  @ApiAcceptedResponse({ type: PendingApprovalDto, description: 'Four-eyes on: waits for a second admin.' })
  async updateVerificationLimits(
    @CurrentActor() actor: Actor,
    @Param('level') level: string,
    @Body() body: UpdateLevelLimitsDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VerificationLimitsDto | PendingApprovalDto> {
    return answer(reply, this.limits.update(actor, level, body));
  }
}
