import { Module } from '@nestjs/common';
import { SignerClientModule } from '../signer-client/signer-client.module';
import { SweepsRepository } from './sweeps.repository';
import { SweepsService } from './sweeps.service';

/** EVM sweeps: customers' deposit addresses swept to the hot address by the signer process (it holds the xprv). */
@Module({
  imports: [SignerClientModule],
  providers: [SweepsRepository, SweepsService],
  exports: [SweepsService],
})
export class SweepsModule {}
