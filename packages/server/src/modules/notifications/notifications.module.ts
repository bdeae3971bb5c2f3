import { Global, Module } from '@nestjs/common';
import { LiveEventsService } from './live-events.service';
import { NotificationsController } from './notifications.controller';
import { NotificationsRepository } from './notifications.repository';
import { NotificationsService } from './notifications.service';

@Global()
@Module({
  controllers: [NotificationsController],
  providers: [NotificationsRepository, NotificationsService, LiveEventsService],
  exports: [NotificationsService, NotificationsRepository, LiveEventsService],
})
export class NotificationsModule {}
