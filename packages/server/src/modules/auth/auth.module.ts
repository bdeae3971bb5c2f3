import { Global, Module, OnApplicationBootstrap } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { AccessGuard } from './access.guard';
import { AdminAuthController, AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { TokenService } from './token.service';
import { UsersRepository } from './users.repository';

@Global()
@Module({
  imports: [JwtModule.register({})],
  controllers: [AuthController, AdminAuthController],
  providers: [UsersRepository, TokenService, AuthService, AccessGuard, { provide: APP_GUARD, useExisting: AccessGuard }],
  exports: [UsersRepository, TokenService, AuthService, AccessGuard],
})
export class AuthModule implements OnApplicationBootstrap {
  constructor(private readonly auth: AuthService) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.auth.ensureAdmin();
  }
}
