import { Module } from '@nestjs/common';
import { ApprovalsModule } from '../approvals/approvals.module';
import { WebhookBodies } from './webhook-bodies';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookSecrets } from './webhook-secrets';
import { AdminWebhooksController, WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/**
 * Webhooks: endpoints, the delivery job, and the bodies. The events themselves are written by the triggers of
 * migration 0027, in the transaction of each change; nothing else in the app calls this module.
 */
@Module({
  // The stored four-eyes requests: an approval event's body is the request as the back office lists it.
  imports: [ApprovalsModule],
  controllers: [WebhooksController, AdminWebhooksController],
  providers: [WebhooksRepository, WebhookSecrets, WebhookBodies, WebhookDeliveryService, WebhooksService],
})
export class WebhooksModule {}
