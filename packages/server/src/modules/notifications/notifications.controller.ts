import { Controller, Get, Param, Put, Req, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { NotificationDto, SupportRoutes } from '@coinpurse/contract';
import type { FastifyReply } from 'fastify';
import { UserAccess } from '../../common/access.decorator';
import { type AuthedRequest, CurrentPrincipal, type Principal } from '../../common/principal';
import { AccessGuard, bearerToken } from '../../common/access.guard';
import { LiveEventsService } from './live-events.service';
import { NotificationsService } from './notifications.service';

@ApiTags('notifications')
@Controller(SupportRoutes.prefix)
export class NotificationsController {
  constructor(
    private readonly notifications: NotificationsService,
    private readonly live: LiveEventsService,
    private readonly guard: AccessGuard,
  ) {}

  @Get(SupportRoutes.getNotifications)
  @UserAccess('read')
  @ApiOkResponse({ type: [NotificationDto], description: "The caller's notifications, newest first (at most 500)." })
  getNotifications(@CurrentPrincipal() principal: Principal): Promise<NotificationDto[]> {
    return this.notifications.listForUser(principal.id);
  }

  @Put(SupportRoutes.readNotification)
  @UserAccess('read')
  @ApiOkResponse({ type: NotificationDto, description: 'The notification, now read.' })
  @ApiNotFoundResponse({ description: "No such notification of the caller (another customer's id is not found either)." })
  readNotification(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<NotificationDto> {
    return this.notifications.markRead(principal.id, id);
  }

  @Get(SupportRoutes.events)
  @UserAccess('read')
  @ApiProduces('text/event-stream')
  @ApiOkResponse({
    description:
      'Server-sent events for the caller (send the bearer token; read with fetch streaming). Events: `notification` ' +
      '(data: NotificationDto; no `_id` for broadcasts) and `balance` (data: `{ token, ... }`): refetch on either. ' +
      'A comment heartbeat every 25 s; a `session` event and the end of the stream when the session is revoked or expires.',
  })
  userEvents(@CurrentPrincipal() principal: Principal, @Req() request: AuthedRequest, @Res() reply: FastifyReply): void {
    const token = bearerToken(request);
    // The stream is written to the socket's response for as long as it lasts: Fastify hands it over.
    reply.hijack();
    this.live.open(principal.id, reply.raw, async () => Boolean(token && (await this.guard.authenticate(token))?.id === principal.id));
  }
}
