import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { TransactionsRepository } from './transactions.repository';
import { WalletTokensRepository } from './wallet-tokens.repository';
import { WalletUsersRepository } from './wallet-users.repository';
import { WalletController } from './wallet.controller';
import { SendsService } from './sends.service';
import { SwapQuotesRepository } from './swap-quotes.repository';
import { SwapsService } from './swaps.service';
import { WalletService } from './wallet.service';

/** A customer's balances, send, swap and history; the admin money commands build on its repositories (admin module). */
@Module({
  imports: [LedgerModule],
  controllers: [WalletController],
  providers: [WalletService, SendsService, SwapsService, SwapQuotesRepository, TransactionsRepository, WalletTokensRepository, WalletUsersRepository],
  exports: [WalletService, TransactionsRepository, WalletTokensRepository, WalletUsersRepository],
})
export class WalletModule {}
