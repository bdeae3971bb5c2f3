import { Module } from '@nestjs/common';
import { PasswordResetController } from './password-reset.controller';
import { PasswordResetRepository } from './password-reset.repository';
import { PasswordResetService } from './password-reset.service';

@Module({ controllers: [PasswordResetController], providers: [PasswordResetRepository, PasswordResetService] })
export class PasswordResetModule {}
