import { Module } from '@nestjs/common';
import { Erc20Payouts } from './erc20-payouts';
import { PayoutsController } from './payouts.controller';
import { PayoutsRepository } from './payouts.repository';
import { PayoutsService } from './payouts.service';
import { SweepsRepository } from './sweeps.repository';
import { SweepsService } from './sweeps.service';

/** Withdrawals to the chain: approved withdrawals signed by the network's signer, broadcast and confirmed; EVM sweeps. */
@Module({
  controllers: [PayoutsController],
  providers: [PayoutsRepository, PayoutsService, Erc20Payouts, SweepsRepository, SweepsService],
  exports: [PayoutsService, PayoutsRepository, SweepsService],
})
export class PayoutsModule {}
