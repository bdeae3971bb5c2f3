import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiKeyDto, ApiKeyRoutes, CreateApiKeyDto, CreatedApiKeyDto } from '@coinpurse/contract';
import { AdminAccess, UserAccess } from '../../common/access.decorator';
import { type Actor, CurrentActor, CurrentPrincipal, type Principal } from '../../common/principal';
import { ApiKeysService } from './api-keys.service';

const CREATED =
  'The key, with `key` itself shown this once (only its hash is kept). `withdraw` (customers) and `operate` (administrators) need `code` when two-factor sign-in is on; `withdraw` needs the address allowlist on (409 otherwise) and mails the owner.';

/** A customer's own API keys. Managed by a person signed in: a key can neither see nor make keys. */
@ApiTags('integrations')
@Controller()
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get(ApiKeyRoutes.userKeys)
  @UserAccess('session-only')
  @ApiOkResponse({ type: [ApiKeyDto], description: 'The caller\u2019s keys, newest first (revoked and expired ones included).' })
  listApiKeys(@CurrentPrincipal() principal: Principal): Promise<ApiKeyDto[]> {
    return this.keys.list(principal);
  }

  @Post(ApiKeyRoutes.userKeys)
  @UserAccess('session-only')
  @ApiCreatedResponse({ type: CreatedApiKeyDto, description: CREATED })
  createApiKey(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyDto> {
    return this.keys.create(principal, actor, body);
  }

  @Delete(ApiKeyRoutes.userKey)
  @UserAccess('session-only')
  @ApiOkResponse({ type: ApiKeyDto, description: 'Revoked at once, on every instance: the next request with it answers 401.' })
  @ApiNotFoundResponse({ description: 'Not a live key of the caller.' })
  revokeApiKey(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<ApiKeyDto> {
    return this.keys.revoke(principal, actor, id);
  }
}

/** An administrator's own API keys (`read`, `operate`). */
@ApiTags('admin-integrations')
@Controller()
export class AdminApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get(ApiKeyRoutes.adminKeys)
  @AdminAccess('session-only')
  @ApiOkResponse({ type: [ApiKeyDto], description: 'The administrator\u2019s own keys, newest first.' })
  listAdminApiKeys(@CurrentPrincipal() principal: Principal): Promise<ApiKeyDto[]> {
    return this.keys.list(principal);
  }

  @Post(ApiKeyRoutes.adminKeys)
  @AdminAccess('session-only')
  @ApiCreatedResponse({ type: CreatedApiKeyDto, description: CREATED })
  createAdminApiKey(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyDto> {
    return this.keys.create(principal, actor, body);
  }

  @Delete(ApiKeyRoutes.adminKey)
  @AdminAccess('session-only')
  @ApiOkResponse({ type: ApiKeyDto, description: 'Revoked at once, on every instance.' })
  @ApiNotFoundResponse({ description: 'Not a live key of the caller.' })
  revokeAdminApiKey(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<ApiKeyDto> {
    return this.keys.revoke(principal, actor, id);
  }
}
