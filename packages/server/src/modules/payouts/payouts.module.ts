import { Module } from '@nestjs/common';
import { ColdPayoutsController } from './cold-payouts.controller';
import { ColdPayoutsRepository } from './cold-payouts.repository';
import { ColdPayoutsService } from './cold-payouts.service';
import { PayoutsController } from './payouts.controller';
import { PayoutsRepository } from './payouts.repository';
import { PayoutsService } from './payouts.service';

/** Withdrawals to the chain: approved withdrawals signed by the network's signer, broadcast and confirmed. */
@Module({
  controllers: [PayoutsController, ColdPayoutsController],
  providers: [PayoutsRepository, PayoutsService, ColdPayoutsRepository, ColdPayoutsService],
  exports: [PayoutsService, PayoutsRepository],
})
export class PayoutsModule {}
