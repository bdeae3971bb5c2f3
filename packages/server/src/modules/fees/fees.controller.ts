import { Body, Controller, Get, Param, Put, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiConflictResponse, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { FeeRowChangedDto, FeeRowUpdateDto, FeeScheduleDto, FeesRoutes, PendingApprovalDto, RevenueDto, RevenueQueryDto } from '@coinpurse/contract';
import type { FastifyReply } from 'fastify';
import { AdminAccess } from '../../common/access.decorator';
import { type Actor, CurrentActor } from '../../common/principal';
import { answer } from '../approvals/approval-gate.service';
import { FeeScheduleService } from './fee-schedule.service';
import { RevenueService } from './revenue.service';

@ApiTags('admin-fees')
@Controller()
export class FeesController {
  constructor(
    private readonly schedule: FeeScheduleService,
    private readonly revenueReports: RevenueService,
  ) {}

  @Get(FeesRoutes.fees)
  @AdminAccess('read')
  @ApiOkResponse({
    type: FeeScheduleDto,
    description: 'The default row, then every supported token with its own values (null: the default, else 0) and house position.',
  })
  getFees(): Promise<FeeScheduleDto> {
    return this.schedule.schedule();
  }

  @Put(FeesRoutes.feeRow)
  @AdminAccess('operate')
  @ApiOkResponse({ type: FeeRowChangedDto, description: 'Changed and audited (`fees.update`). A field left out keeps its value; null clears it.' })
  @ApiAcceptedResponse({ type: PendingApprovalDto, description: 'Four-eyes is on: the change waits for a second administrator.' })
  @ApiBadRequestResponse({ description: 'Bad value, unknown token, or a value of the default row on a token (or the other way round).' })
  @ApiConflictResponse({ description: 'Four-eyes is on and no other active administrator could approve it.' })
  updateFees(
    @CurrentActor() actor: Actor,
    @Param('token') token: string,
    @Body() body: FeeRowUpdateDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<FeeRowChangedDto | PendingApprovalDto> {
    return answer(reply, this.schedule.update(actor, token, body));
  }

  @Get(FeesRoutes.revenue)
  @AdminAccess('read')
  @ApiOkResponse({ type: RevenueDto, description: 'Per day (UTC), token and kind: coins and USD at the prices of each operation, from the ledger.' })
  @ApiBadRequestResponse({ description: 'Bad days, or more than 366 of them.' })
  getRevenue(@Query() query: RevenueQueryDto): Promise<RevenueDto> {
    return this.revenueReports.revenue(query);
  }

  @Get(FeesRoutes.revenueExport)
  @AdminAccess('read')
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'The same rows as CSV.', schema: { type: 'string' } })
  async exportRevenue(@Query() query: RevenueQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const csv = await this.revenueReports.csv(query);
    reply.header('Content-Type', 'text/csv; charset=utf-8');
    reply.header('Content-Disposition', 'attachment; filename="coinpurse-revenue.csv"');
    reply.header('Cache-Control', 'no-store');
    return csv;
  }
}
