import { Injectable } from '@nestjs/common';
import type { WithdrawalQueue } from '@coinpurse/contract';
import { sql, type SQL } from 'drizzle-orm';
import { adminApprovals, payoutNetworks, payouts, supportedTokens, tokenNetworks, transactions } from '../../db/schema';
import { ChainConnections } from '../chain/chain-connections';
import { SignerClients } from '../signer-client/signer-clients';

/**
 * Which withdrawals wait for someone, as SQL conditions on `transactions` (the dashboard counts them, the admin
 * Transactions list filters by them: the same conditions, so a count and its list agree).
 *
 * Every one is an open withdrawal — pending, or approved and not on the chain yet (no txHash) — which is exactly the
 * predicate of the partial index `transactions_open_withdrawals_idx` (migration 0048): the conditions walk that small
 * set, never the settled withdrawals. Who pays an approved withdrawal is decided here as the payout job decides it
 * (`PayoutsRepository.createDue`, `Erc20Payouts.createDue`): a network with a signer pays its own coins, and on an EVM
 * network the tokens whose row there has a contract; the rest an admin pays by hand.
 */
@Injectable()
export class WithdrawalQueues {
  constructor(
    private readonly chains: ChainConnections,
    private readonly signers: SignerClients,
  ) {}

  /** Pending, or approved and not on the chain yet: the partial index's predicate, written as it is there. */
  open(): SQL {
    return sql`${transactions.type} = 'withdrawal' and ${transactions.voidedAt} is null and (${transactions.status} = 'pending' or (${transactions.status} = 'approved' and not (${transactions.details} ? 'txHash')))`;
  }

  /** The open withdrawals waiting in `queue`. */
  condition(queue: WithdrawalQueue): SQL {
    return sql`${this.open()} and ${this.only(queue)}`;
  }

  /** What sets `queue` apart among the open withdrawals (the dashboard counts each with a FILTER over one walk). */
  only(queue: WithdrawalQueue): SQL {
    const pending = sql`${transactions.status} = 'pending'`;
    const inApprovals = sql`exists (select 1 from ${adminApprovals} where ${adminApprovals.transactionId} = ${transactions.id} and ${adminApprovals.status} = 'pending')`;
    const payoutIn = (state: string) =>
      sql`exists (select 1 from ${payouts} where ${payouts.transactionId} = ${transactions.id} and ${payouts.state} = ${state})`;
    switch (queue) {
      case 'review':
        return sql`(${pending} and ${this.signerPays()} and not ${inApprovals})`;
      case 'manual-payout':
        return sql`((${pending} and not ${this.signerPays()} and not ${inApprovals}) or ${this.approvedNoSignerPays()})`;
      case 'awaiting-funds':
        return sql`(${transactions.status} = 'approved' and ${payoutIn('awaiting_funds')})`;
      case 'cannot-sign':
        return sql`(${transactions.status} = 'approved' and exists (select 1 from ${payouts} where ${payouts.transactionId} = ${transactions.id} and ${payouts.state} = 'approved' and ${payouts.lastError} is not null))`;
      case 'cold-signature':
        return sql`(${transactions.status} = 'approved' and ${payoutIn('awaiting_cold_signature')})`;
    }
  }

  /** Whether the network's signer pays this row's token once it is approved (`false` where no network has a signer). */
  private signerPays(): SQL {
    const networks = this.signers.networks().flatMap((network) => this.chains.get(network) ?? []);
    if (!networks.length) return sql`false`;
    const natives = networks.flatMap((chain) => chain.nativeCoins.map((coin) => sql`(${chain.network}, ${coin})`));
    const evm = networks.filter((chain) => chain.family === 'evm').map((chain) => sql`${chain.network}`);
    const ownCoin = sql`(${transactions.network}, ${transactions.token}) in (${sql.join(natives, sql`, `)})`;
    if (!evm.length) return sql`(${ownCoin})`;
    const contractToken = sql`${transactions.network} in (${sql.join(evm, sql`, `)}) and exists (
      select 1 from ${tokenNetworks} join ${supportedTokens} on ${supportedTokens.id} = ${tokenNetworks.tokenId}
      where ${tokenNetworks.network} = ${transactions.network} and ${supportedTokens.coinId} = ${transactions.token}
        and ${supportedTokens.deletedAt} is null and ${tokenNetworks.contractAddress} is not null)`;
    return sql`(${ownCoin} or (${contractToken}))`;
  }

  /**
   * Approved since its network's signer pays by itself, with no payout and none to come: a token the signer cannot pay
   * (an ERC-20 without its contract set). Approved withdrawals on a network without a signer, or from before it paid by
   * itself, were settled by hand (the hash is optional) and wait for nobody.
   */
  private approvedNoSignerPays(): SQL {
    const networks = this.signers.networks();
    if (!networks.length) return sql`false`;
    return sql`(${transactions.status} = 'approved' and ${transactions.network} in (${sql.join(
      networks.map((network) => sql`${network}`),
      sql`, `,
    )}) and not ${this.signerPays()}
      and exists (select 1 from ${payoutNetworks} where ${payoutNetworks.network} = ${transactions.network} and ${transactions.updatedAt} >= ${payoutNetworks.enabledAt})
      and not exists (select 1 from ${payouts} where ${payouts.transactionId} = ${transactions.id}))`;
  }
}
