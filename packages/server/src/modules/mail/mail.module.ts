import { Global, Module } from '@nestjs/common';
import { MailDeliveryService } from './mail-delivery.service';
import { MailRepository } from './mail.repository';
import { MailService } from './mail.service';

@Global()
@Module({ providers: [MailRepository, MailService, MailDeliveryService], exports: [MailService] })
export class MailModule {}
