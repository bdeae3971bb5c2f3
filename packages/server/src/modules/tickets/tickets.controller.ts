import { Body, Controller, Get, HttpCode, Param, Post, Query, UploadedFile, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  BackOfficeRoutes,
  CreateTicketDto,
  ReplyTicketDto,
  SupportRoutes,
  TicketCreatedDto,
  TicketDetailDto,
  TicketPageDto,
  TicketsQueryDto,
} from '@coinpurse/contract';
import { AdminAccess, OptionalUserAccess } from '../../common/access.decorator';
import { ImageUploadInterceptor, type UploadedImageFile } from '../../common/image-upload';
import { type Actor, CurrentActor, CurrentPrincipal, type Principal } from '../../common/principal';
import { TicketsService } from './tickets.service';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';

@ApiTags('tickets')
@Controller(SupportRoutes.prefix)
export class TicketsController {
  constructor(private readonly tickets: TicketsService) {}

  @Post(SupportRoutes.createTicket)
  @OptionalUserAccess('session-only')
  @UseGuards(RateLimitGuard)
  @UseInterceptors(ImageUploadInterceptor())
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: CreateTicketDto })
  @ApiCreatedResponse({
    type: TicketCreatedDto,
    description: 'Signed in: linked to the account. The image (optional) must be PNG, JPEG, WebP or GIF by its bytes, ≤ 5 MB (413 above, 415 other types).',
  })
  createTicket(
    @CurrentPrincipal(false) principal: Principal | undefined,
    @Body() body: CreateTicketDto,
    @UploadedFile() image: UploadedImageFile | undefined,
  ): Promise<TicketCreatedDto> {
    return this.tickets.createTicket(principal, body, image);
  }
}

@ApiTags('admin-tickets')
@Controller(BackOfficeRoutes.prefix)
export class AdminTicketsController {
  constructor(private readonly tickets: TicketsService) {}

  @Get(BackOfficeRoutes.tickets)
  @AdminAccess('read')
  @ApiOkResponse({ type: TicketPageDto, description: 'Newest first; pass nextCursor as cursor for the next page.' })
  getTickets(@Query() query: TicketsQueryDto): Promise<TicketPageDto> {
    return this.tickets.listTickets(query);
  }

  @Get(BackOfficeRoutes.ticket)
  @AdminAccess('read')
  @ApiOkResponse({ type: TicketDetailDto })
  @ApiNotFoundResponse({ description: 'No such ticket.' })
  getTicket(@Param('id') id: string): Promise<TicketDetailDto> {
    return this.tickets.getTicket(id);
  }

  @Post(BackOfficeRoutes.replyTicket)
  @HttpCode(200)
  @AdminAccess('operate')
  @ApiOkResponse({
    type: TicketDetailDto,
    description: "Mailed to the ticket's email and, when linked to a customer, sent as a notification. 409 when closed.",
  })
  replyTicket(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: ReplyTicketDto): Promise<TicketDetailDto> {
    return this.tickets.replyTicket(actor, id, body.message);
  }

  @Post(BackOfficeRoutes.closeTicket)
  @HttpCode(200)
  @AdminAccess('operate')
  @ApiOkResponse({ type: TicketDetailDto, description: '409 when already closed.' })
  closeTicket(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<TicketDetailDto> {
    return this.tickets.closeTicket(actor, id);
  }
}
