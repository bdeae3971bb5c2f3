import { Module } from '@nestjs/common';
import { Erc20Payouts } from './erc20-payouts';
import { PayoutsController } from './payouts.controller';
import { PayoutsRepository } from './payouts.repository';
import { PayoutsService } from './payouts.service';

/** Withdrawals to the chain: approved withdrawals signed by the network's signer, broadcast and confirmed (ERC-20 tokens too). */
@Module({
  controllers: [PayoutsController],
  providers: [PayoutsRepository, PayoutsService, Erc20Payouts],
  exports: [PayoutsService, PayoutsRepository],
})
export class PayoutsModule {}
