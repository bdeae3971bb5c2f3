import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, UseGuards } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import {
  AdminRoutes,
  OkResponseDto,
  RecoveryCodesDto,
  SecurityRoutes,
  SessionInfoDto,
  TwoFactorCodeDto,
  TwoFactorSetupDto,
  TwoFactorStatusDto,
  UserRoutes,
} from '@coinpurse/contract';
import { AdminAccess, AllowedBeforeTwoFactor, AuthenticatedAccess, UserAccess } from '../../common/access.decorator';
import { NotFoundError } from '../../common/errors';
import { type Actor, CurrentActor, CurrentPrincipal, type Principal } from '../../common/principal';
import { SessionsService } from './sessions.service';
import { TwoFactorService } from './two-factor.service';

const sessionIdPipe = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('Session not found.') });

/** Two-factor sign-in (customers and administrators alike: the access level is the caller's) and sign-out everywhere. */
@ApiTags('security')
@Controller(UserRoutes.prefix)
export class TwoFactorController {
  constructor(
    private readonly twoFactor: TwoFactorService,
    private readonly sessions: SessionsService,
  ) {}

  @Get(SecurityRoutes.twoFactorStatus)
  @AuthenticatedAccess('session-only')
  @ApiOkResponse({ type: TwoFactorStatusDto })
  twoFactorStatus(@CurrentPrincipal() principal: Principal): Promise<TwoFactorStatusDto> {
    return this.twoFactor.status(principal);
  }

  @Post(SecurityRoutes.twoFactorSetup)
  @HttpCode(200)
  @AuthenticatedAccess('session-only')
  @ApiOkResponse({ type: TwoFactorSetupDto, description: 'A new secret to scan (pending until enabled); 409 when two-factor sign-in is already on.' })
  setupTwoFactor(@CurrentPrincipal() principal: Principal): Promise<TwoFactorSetupDto> {
    return this.twoFactor.setup(principal);
  }

  @Post(SecurityRoutes.twoFactorEnable)
  @HttpCode(200)
  @AuthenticatedAccess('session-only')
  @UseGuards(RateLimitGuard)
  @ApiOkResponse({ type: RecoveryCodesDto, description: 'Confirms the setup with a code from the app; returns 10 single-use recovery codes (shown once).' })
  enableTwoFactor(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Body() body: TwoFactorCodeDto): Promise<RecoveryCodesDto> {
    return this.twoFactor.enable(actor, principal, body.code);
  }

  @Post(SecurityRoutes.twoFactorDisable)
  @HttpCode(200)
  @AuthenticatedAccess('session-only')
  @UseGuards(RateLimitGuard)
  @ApiOkResponse({ type: OkResponseDto, description: 'Needs a current code or a recovery code; every other session ends.' })
  async disableTwoFactor(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Body() body: TwoFactorCodeDto): Promise<OkResponseDto> {
    return this.twoFactor.disable(actor, principal, body.code).then(() => ({ ok: true }));
  }

  @Post(SecurityRoutes.twoFactorRecoveryCodes)
  @HttpCode(200)
  @AuthenticatedAccess('session-only')
  @UseGuards(RateLimitGuard)
  @ApiOkResponse({ type: RecoveryCodesDto, description: 'A new set of 10 recovery codes; the old ones stop working.' })
  regenerateRecoveryCodes(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Body() body: TwoFactorCodeDto): Promise<RecoveryCodesDto> {
    return this.twoFactor.regenerateRecoveryCodes(actor, principal, body.code);
  }

  @Post(SecurityRoutes.logoutAll)
  @HttpCode(200)
  @AuthenticatedAccess('session-only')
  @ApiOkResponse({ type: OkResponseDto, description: 'Ends every session of the account, this one included.' })
  async logoutAll(@CurrentActor() actor: Actor): Promise<OkResponseDto> {
    return this.sessions.signOutEverywhere(actor).then(() => ({ ok: true }));
  }
}

@ApiTags('security')
@Controller(UserRoutes.prefix)
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get(SecurityRoutes.sessions)
  @UserAccess('session-only')
  @ApiOkResponse({ type: [SessionInfoDto], description: 'Live sessions, most recently used first; `current` marks this device.' })
  listSessions(@CurrentPrincipal() principal: Principal): Promise<SessionInfoDto[]> {
    return this.sessions.list(principal.id, principal.sessionId);
  }

  @Delete(SecurityRoutes.session)
  @UserAccess('session-only')
  @ApiOkResponse({ type: OkResponseDto })
  @ApiNotFoundResponse({ description: 'Not a live session of this account.' })
  async deleteSession(@CurrentPrincipal() principal: Principal, @Param('id', sessionIdPipe) id: string): Promise<OkResponseDto> {
    return this.sessions.revoke(principal.id, id).then(() => ({ ok: true }));
  }
}

@ApiTags('security-admin')
@Controller(AdminRoutes.prefix)
export class AdminSessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get(SecurityRoutes.sessions)
  @AdminAccess('session-only')
  @AllowedBeforeTwoFactor()
  @ApiOkResponse({ type: [SessionInfoDto], description: "The administrator's own live sessions." })
  listAdminSessions(@CurrentPrincipal() principal: Principal): Promise<SessionInfoDto[]> {
    return this.sessions.list(principal.id, principal.sessionId);
  }

  @Delete(SecurityRoutes.session)
  @AdminAccess('session-only')
  @AllowedBeforeTwoFactor()
  @ApiOkResponse({ type: OkResponseDto })
  @ApiNotFoundResponse({ description: 'Not a live session of this administrator.' })
  async deleteAdminSession(@CurrentPrincipal() principal: Principal, @Param('id', sessionIdPipe) id: string): Promise<OkResponseDto> {
    return this.sessions.revoke(principal.id, id).then(() => ({ ok: true }));
  }
}
