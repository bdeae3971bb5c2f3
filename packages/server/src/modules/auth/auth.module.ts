import { Global, Module, OnApplicationBootstrap } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { AccessGuard, SessionAuthenticator } from '../../common/access.guard';
import { AdminAuthController, AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { TokenService } from './token.service';
import { TokenSessionAuthenticator } from './token-session-authenticator';
import { UsersRepository } from './users.repository';

@Global()
@Module({
  imports: [JwtModule.register({})],
  controllers: [AuthController, AdminAuthController],
  providers: [
    UsersRepository,
    TokenService,
    AuthService,
    { provide: SessionAuthenticator, useClass: TokenSessionAuthenticator },
    AccessGuard,
    { provide: APP_GUARD, useExisting: AccessGuard },
  ],
  exports: [UsersRepository, TokenService, AuthService, SessionAuthenticator, AccessGuard],
})
export class AuthModule implements OnApplicationBootstrap {
  constructor(private readonly auth: AuthService) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.auth.ensureAdmin();
  }
}
