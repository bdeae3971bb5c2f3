import { Global, Module } from '@nestjs/common';
import { NotificationsRepository } from './notifications.repository';
import { NotificationsService } from './notifications.service';

@Global()
@Module({ providers: [NotificationsRepository, NotificationsService], exports: [NotificationsService, NotificationsRepository] })
export class NotificationsModule {}
