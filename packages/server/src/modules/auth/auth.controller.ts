import { Body, Controller, Get, HttpCode, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ThrottlerGuard } from '@nestjs/throttler';
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
import { type Actor, CurrentActor, CurrentPrincipal, type Principal } from '../../common/principal';
import { AuthService } from './auth.service';

@ApiTags('auth')
@Controller(UserRoutes.prefix)
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post(UserRoutes.createUser)
  @PublicAccess()
  @UseGuards(ThrottlerGuard)
  @ApiCreatedResponse({ type: SessionDto, description: 'The session object of the new customer.' })
  @ApiConflictResponse({ description: 'The email is taken.' })
  createUser(@Body() body: CreateUserDto): Promise<SessionDto> {
    return this.auth.createUser(body);
  }

  @Post(UserRoutes.loginUser)
  @HttpCode(200)
  @PublicAccess()
  @UseGuards(ThrottlerGuard)
  @ApiOkResponse({ type: SessionDto })
  loginUser(@Body() body: LoginDto): Promise<SessionDto> {
    return this.auth.loginUser(body);
  }

  @Post(UserRoutes.logout)
  @HttpCode(200)
  @AuthenticatedAccess()
  @ApiOkResponse({ type: OkResponseDto, description: 'Revokes every token of this account issued so far.' })
  async logout(@CurrentPrincipal() principal: Principal): Promise<OkResponseDto> {
    return this.auth.logout(principal).then(() => ({ ok: true }));
  }

  @Get(UserRoutes.me)
  @AuthenticatedAccess()
  @ApiOkResponse({ type: ProfileDto })
  me(@CurrentPrincipal() principal: Principal): Promise<ProfileDto> {
    return this.auth.profile(principal);
  }

  @Patch(UserRoutes.profile)
  @AuthenticatedAccess()
  @ApiOkResponse({ type: ProfileDto })
  updateProfile(@CurrentActor() actor: Actor, @Body() body: UpdateProfileDto): Promise<ProfileDto> {
    return this.auth.updateProfile(actor, body);
  }

  @Post(UserRoutes.changePassword)
  @HttpCode(200)
  @AuthenticatedAccess()
  @UseGuards(ThrottlerGuard)
  @ApiOkResponse({ type: SessionDto, description: 'Other sessions end; the returned session replaces the stored one.' })
  changePassword(@CurrentActor() actor: Actor, @Body() body: ChangePasswordDto): Promise<SessionDto> {
    return this.auth.changePassword(actor, body);
  }
}

@ApiTags('auth')
@Controller(AdminRoutes.prefix)
export class AdminAuthController {
  constructor(private readonly auth: AuthService) {}

  @Post(AdminRoutes.loginAdmin)
  @HttpCode(200)
  @PublicAccess()
  @UseGuards(ThrottlerGuard)
  @ApiOkResponse({ type: SessionDto, description: 'Administrators only: a customer account gets 401.' })
  loginAdmin(@Body() body: LoginDto): Promise<SessionDto> {
    return this.auth.loginAdmin(body);
  }
}
