import { Module } from '@nestjs/common';
import { PayoutsController } from './payouts.controller';
import { PayoutsRepository } from './payouts.repository';
import { PayoutsService } from './payouts.service';

/** Withdrawals to the chain: approved withdrawals signed by the network's signer, broadcast and confirmed. */
@Module({
  controllers: [PayoutsController],
  providers: [PayoutsRepository, PayoutsService],
  exports: [PayoutsService, PayoutsRepository],
})
export class PayoutsModule {}
