import { Module } from '@nestjs/common';
import { PayoutsController } from './payouts.controller';
import { PayoutsRepository } from './payouts.repository';
import { PayoutsService } from './payouts.service';
import { ReservesAlertService } from './reserves-alert.service';
import { ReservesController } from './reserves.controller';
import { ReservesRepository } from './reserves.repository';
import { ReservesService } from './reserves.service';

/** Withdrawals to the chain: approved withdrawals signed by the network's signer, broadcast and confirmed; the reserves. */
@Module({
  controllers: [PayoutsController, ReservesController],
  providers: [PayoutsRepository, PayoutsService, ReservesRepository, ReservesAlertService, ReservesService],
  exports: [PayoutsService, PayoutsRepository],
})
export class PayoutsModule {}
