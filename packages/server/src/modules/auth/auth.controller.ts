import { Body, Controller, Get, HttpCode, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  AdminRoutes,
  ChangePasswordDto,
  CreateUserDto,
  LoginDto,
  OkResponseDto,
  ProfileDto,
  SessionDto,
  UpdateProfileDto,
  UserRoutes,
} from '@coinpurse/contract';
import { AuthenticatedAccess, PublicAccess } from '../../common/access.decorator';
import { type Actor, CurrentActor, CurrentClient, CurrentPrincipal, type Principal } from '../../common/principal';
import type { ClientInfo } from '../security/sessions.service';
import { AuthService } from './auth.service';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';

@ApiTags('auth')
@Controller(UserRoutes.prefix)
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post(UserRoutes.createUser)
  @PublicAccess()
  @UseGuards(RateLimitGuard)
  @ApiCreatedResponse({ type: SessionDto, description: 'The session object of the new customer.' })
  @ApiConflictResponse({ description: 'The email is taken.' })
  createUser(@Body() body: CreateUserDto, @CurrentClient() client: ClientInfo): Promise<SessionDto> {
    return this.auth.createUser(body, client);
  }

  @Post(UserRoutes.loginUser)
  @HttpCode(200)
  @PublicAccess()
  @UseGuards(RateLimitGuard)
  @ApiOkResponse({
    type: SessionDto,
    description: 'With two-factor sign-in on and no or a wrong `code`: 401 `{ error, twoFactorRequired: true }` (the password is checked first).',
  })
  loginUser(@Body() body: LoginDto, @CurrentClient() client: ClientInfo): Promise<SessionDto> {
    return this.auth.loginUser(body, client);
  }

  @Post(UserRoutes.logout)
  @HttpCode(200)
  @AuthenticatedAccess('session-only')
  @ApiOkResponse({ type: OkResponseDto, description: "Ends this device's session only (see logout-all)." })
  async logout(@CurrentPrincipal() principal: Principal): Promise<OkResponseDto> {
    return this.auth.logout(principal).then(() => ({ ok: true }));
  }

  @Get(UserRoutes.me)
  @AuthenticatedAccess('read')
  @ApiOkResponse({ type: ProfileDto })
  me(@CurrentPrincipal() principal: Principal): Promise<ProfileDto> {
    return this.auth.profile(principal);
  }

  @Patch(UserRoutes.profile)
  @AuthenticatedAccess('session-only')
  @ApiOkResponse({ type: ProfileDto })
  updateProfile(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Body() body: UpdateProfileDto): Promise<ProfileDto> {
    return this.auth.updateProfile(principal, actor, body);
  }

  @Post(UserRoutes.changePassword)
  @HttpCode(200)
  @AuthenticatedAccess('session-only')
  @UseGuards(RateLimitGuard)
  @ApiOkResponse({
    type: SessionDto,
    description: 'Every session ends; the returned session replaces the stored one. Needs `code` when two-factor sign-in is on.',
  })
  changePassword(
    @CurrentPrincipal() principal: Principal,
    @CurrentActor() actor: Actor,
    @Body() body: ChangePasswordDto,
    @CurrentClient() client: ClientInfo,
  ): Promise<SessionDto> {
    return this.auth.changePassword(principal, actor, body, client);
  }
}

@ApiTags('auth')
@Controller(AdminRoutes.prefix)
export class AdminAuthController {
  constructor(private readonly auth: AuthService) {}

  @Post(AdminRoutes.loginAdmin)
  @HttpCode(200)
  @PublicAccess()
  @UseGuards(RateLimitGuard)
  @ApiOkResponse({ type: SessionDto, description: 'Administrators only: a customer account gets 401. `code` as for login-user.' })
  loginAdmin(@Body() body: LoginDto, @CurrentClient() client: ClientInfo): Promise<SessionDto> {
    return this.auth.loginAdmin(body, client);
  }
}
