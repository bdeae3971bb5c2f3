import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ForgotPasswordDto, ResetPasswordDto, SupportMessageDto, SupportRoutes } from '@coinpurse/contract';
import { PublicAccess } from '../../common/access.decorator';
import type { AuthedRequest } from '../../common/principal';
import { bearerToken } from '../../common/access.guard';
import { PasswordResetService } from './password-reset.service';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';

@ApiTags('auth')
@Controller(SupportRoutes.prefix)
export class PasswordResetController {
  constructor(private readonly resets: PasswordResetService) {}

  @Post(SupportRoutes.forgotPassword)
  @HttpCode(200)
  @PublicAccess()
  @UseGuards(RateLimitGuard)
  @ApiOkResponse({ type: SupportMessageDto, description: 'The same answer for every email; a known customer gets a link valid for 30 minutes.' })
  forgotPassword(@Body() body: ForgotPasswordDto, @Req() request: AuthedRequest): Promise<SupportMessageDto> {
    return this.resets.forgotPassword(body.email, request.requestId);
  }

  @Post(SupportRoutes.resetPassword)
  @HttpCode(200)
  @PublicAccess()
  @ApiBearerAuth()
  @UseGuards(RateLimitGuard)
  @ApiOkResponse({ type: SupportMessageDto, description: 'Send the token from the mailed link as `Authorization: Bearer <token>`. Every older session ends.' })
  @ApiBadRequestResponse({ description: 'The link is invalid, used or expired, or the password is not 8 to 128 characters.' })
  resetPassword(@Body() body: ResetPasswordDto, @Req() request: AuthedRequest): Promise<SupportMessageDto> {
    return this.resets.resetPassword(bearerToken(request), body.password, request.requestId);
  }
}
