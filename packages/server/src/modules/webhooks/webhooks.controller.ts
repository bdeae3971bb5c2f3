import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  CreatedWebhookDto,
  CreateWebhookDto,
  NEXT_CURSOR_HEADER,
  OkResponseDto,
  PageQueryDto,
  UpdateWebhookDto,
  WebhookDeliveryDto,
  WebhookDto,
  WebhookRoutes,
  WebhookSecretDto,
} from '@coinpurse/contract';
import type { FastifyReply } from 'fastify';
import { AdminAccess, UserAccess } from '../../common/access.decorator';
import { nextCursorHeader, setCursor } from '../../common/next-cursor';
import { type Actor, CurrentActor, CurrentPrincipal, type Principal } from '../../common/principal';
import { WebhooksService } from './webhooks.service';

const NOT_FOUND = 'No such endpoint of the caller.';
const CREATED =
  'The endpoint with its signing secret `secret` (whsec_…), shown this once. Deliveries are signed to the Standard Webhooks specification; 400 for a URL that is not https or leads to a private, loopback or link-local address.';
const UPDATED = 'The endpoint as changed. `enabled: true` resumes an endpoint disabled after failures: its waiting deliveries go out in order.';
const ROTATED = 'The new secret, shown this once; the previous one signs too (a second signature) until `previousSecretUntil`.';
const DELIVERIES =
  'Each event sent (or to send) to this endpoint, newest first, with every try: its time, the HTTP status or the error, the start of the answer.';
const RESENT = 'Queued again as a new round of tries: the same event id (`webhook-id`) and body. 409 while it is still waiting to be sent.';
const TESTED = 'A `webhook.test` event queued to this endpoint (delivered within a second or so; see its deliveries).';

/** A customer's webhook endpoints. API keys manage them with `read` (a webhook pushes only what the key could read). */
@ApiTags('integrations')
@Controller()
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get(WebhookRoutes.userWebhooks)
  @UserAccess('read')
  @ApiOkResponse({ type: [WebhookDto], description: 'The endpoints, newest first.' })
  listWebhooks(@CurrentPrincipal() principal: Principal): Promise<WebhookDto[]> {
    return this.webhooks.list(principal);
  }

  @Post(WebhookRoutes.userWebhooks)
  @UserAccess('read')
  @ApiCreatedResponse({ type: CreatedWebhookDto, description: CREATED })
  createWebhook(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Body() body: CreateWebhookDto): Promise<CreatedWebhookDto> {
    return this.webhooks.create(principal, actor, body);
  }

  @Patch(WebhookRoutes.userWebhook)
  @UserAccess('read')
  @ApiOkResponse({ type: WebhookDto, description: UPDATED })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  updateWebhook(
    @CurrentPrincipal() principal: Principal,
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: UpdateWebhookDto,
  ): Promise<WebhookDto> {
    return this.webhooks.update(principal, actor, id, body);
  }

  @Delete(WebhookRoutes.userWebhook)
  @UserAccess('read')
  @ApiOkResponse({ type: OkResponseDto, description: 'Deleted with its deliveries; nothing more is sent to it.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async deleteWebhook(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<OkResponseDto> {
    await this.webhooks.remove(principal, actor, id);
    return { ok: true };
  }

  @Post(WebhookRoutes.userRotateSecret)
  @HttpCode(200)
  @UserAccess('read')
  @ApiOkResponse({ type: WebhookSecretDto, description: ROTATED })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  rotateWebhookSecret(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<WebhookSecretDto> {
    return this.webhooks.rotateSecret(principal, actor, id);
  }

  @Get(WebhookRoutes.userDeliveries)
  @UserAccess('read')
  @ApiOkResponse({ type: [WebhookDeliveryDto], description: DELIVERIES, headers: { [NEXT_CURSOR_HEADER]: nextCursorHeader } })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async listWebhookDeliveries(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query() query: PageQueryDto,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<WebhookDeliveryDto[]> {
    const page = await this.webhooks.deliveries(principal, id, query);
    setCursor(response, page.next);
    return page.items;
  }

  @Post(WebhookRoutes.userResend)
  @HttpCode(200)
  @UserAccess('read')
  @ApiOkResponse({ type: WebhookDeliveryDto, description: RESENT })
  @ApiNotFoundResponse({ description: 'No such endpoint of the caller, or no such delivery of it.' })
  resendWebhookDelivery(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<WebhookDeliveryDto> {
    return this.webhooks.resend(principal, id, deliveryId);
  }

  @Post(WebhookRoutes.userTest)
  @HttpCode(200)
  @UserAccess('read')
  @ApiOkResponse({ type: WebhookDeliveryDto, description: TESTED })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  testWebhook(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<WebhookDeliveryDto> {
    return this.webhooks.test(principal, id);
  }
}

/** An administrator's webhook endpoints. API keys manage them with `read` (a webhook pushes only what the key could read). */
@ApiTags('admin-integrations')
@Controller()
export class AdminWebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get(WebhookRoutes.adminWebhooks)
  @AdminAccess('read')
  @ApiOkResponse({ type: [WebhookDto], description: 'The endpoints, newest first.' })
  listAdminWebhooks(@CurrentPrincipal() principal: Principal): Promise<WebhookDto[]> {
    return this.webhooks.list(principal);
  }

  @Post(WebhookRoutes.adminWebhooks)
  @AdminAccess('read')
  @ApiCreatedResponse({ type: CreatedWebhookDto, description: CREATED })
  createAdminWebhook(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Body() body: CreateWebhookDto): Promise<CreatedWebhookDto> {
    return this.webhooks.create(principal, actor, body);
  }

  @Patch(WebhookRoutes.adminWebhook)
  @AdminAccess('read')
  @ApiOkResponse({ type: WebhookDto, description: UPDATED })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  updateAdminWebhook(
    @CurrentPrincipal() principal: Principal,
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: UpdateWebhookDto,
  ): Promise<WebhookDto> {
    return this.webhooks.update(principal, actor, id, body);
  }

  @Delete(WebhookRoutes.adminWebhook)
  @AdminAccess('read')
  @ApiOkResponse({ type: OkResponseDto, description: 'Deleted with its deliveries; nothing more is sent to it.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async deleteAdminWebhook(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<OkResponseDto> {
    await this.webhooks.remove(principal, actor, id);
    return { ok: true };
  }

  @Post(WebhookRoutes.adminRotateSecret)
  @HttpCode(200)
  @AdminAccess('read')
  @ApiOkResponse({ type: WebhookSecretDto, description: ROTATED })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  rotateAdminWebhookSecret(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<WebhookSecretDto> {
    return this.webhooks.rotateSecret(principal, actor, id);
  }

  @Get(WebhookRoutes.adminDeliveries)
  @AdminAccess('read')
  @ApiOkResponse({ type: [WebhookDeliveryDto], description: DELIVERIES, headers: { [NEXT_CURSOR_HEADER]: nextCursorHeader } })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async listAdminWebhookDeliveries(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query() query: PageQueryDto,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<WebhookDeliveryDto[]> {
    const page = await this.webhooks.deliveries(principal, id, query);
    setCursor(response, page.next);
    return page.items;
  }

  @Post(WebhookRoutes.adminResend)
  @HttpCode(200)
  @AdminAccess('read')
  @ApiOkResponse({ type: WebhookDeliveryDto, description: RESENT })
  @ApiNotFoundResponse({ description: 'No such endpoint of the caller, or no such delivery of it.' })
  resendAdminWebhookDelivery(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<WebhookDeliveryDto> {
    return this.webhooks.resend(principal, id, deliveryId);
  }

  @Post(WebhookRoutes.adminTest)
  @HttpCode(200)
  @AdminAccess('read')
  @ApiOkResponse({ type: WebhookDeliveryDto, description: TESTED })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  testAdminWebhook(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<WebhookDeliveryDto> {
    return this.webhooks.test(principal, id);
  }
}
