import { Module } from '@nestjs/common';
import { ApprovalGateModule } from '../admin/approval-gate.module';
import { LedgerModule } from '../ledger/ledger.module';
import { AdminTransactionsService } from './admin-transactions.service';
import { TransactionsRepository } from './transactions.repository';
import { WalletTokensRepository } from './wallet-tokens.repository';
import { WalletUsersRepository } from './wallet-users.repository';
import { AdminTransactionsController, AdminUserBalancesController, WalletController } from './wallet.controller';
import { WalletService } from './wallet.service';

/** Balances, send, swap, deposits, adjustments, transaction status and history. */
@Module({
  imports: [LedgerModule, ApprovalGateModule],
  controllers: [WalletController, AdminTransactionsController, AdminUserBalancesController],
  providers: [WalletService, AdminTransactionsService, TransactionsRepository, WalletTokensRepository, WalletUsersRepository],
  exports: [WalletService, AdminTransactionsService, WalletTokensRepository],
})
export class WalletModule {}
