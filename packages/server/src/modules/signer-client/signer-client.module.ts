import { Module } from '@nestjs/common';
import { SignerClients } from './signer-clients';

/**
 * The API's client of the signer process (one per network with `CHAIN_<NETWORK>_SIGNER_URL`): the payouts, the cold
 * payouts, the sweeps and the reserves ask it for signatures and read the chain through it. It holds no key.
 */
@Module({ providers: [SignerClients], exports: [SignerClients] })
export class SignerClientModule {}
