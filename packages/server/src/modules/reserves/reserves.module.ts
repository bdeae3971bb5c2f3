import { Module } from '@nestjs/common';
import { SignerClientModule } from '../signer-client/signer-client.module';
import { ReservesAlertService } from './reserves-alert.service';
import { ReservesController } from './reserves.controller';
import { ReservesRepository } from './reserves.repository';
import { ReservesService } from './reserves.service';

/** The reserves: what the platform holds on chain (hot wallet, deposit addresses, cold addresses) against what it owes. */
@Module({
  imports: [SignerClientModule],
  controllers: [ReservesController],
  providers: [ReservesRepository, ReservesAlertService, ReservesService],
})
export class ReservesModule {}
