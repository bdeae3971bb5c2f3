import { Injectable, Logger } from '@nestjs/common';
import { findNetwork } from '../../common/networks';
import type { Tx } from '../../db/database';
import type { ChainOutput } from '../../chain-core/utxo-node';
import { AccountFreezesService } from '../compliance/account-freezes.service';
import { normaliseAddress } from '../compliance/sanctions-list';
import { SanctionsService } from '../compliance/sanctions.service';
import { MailService } from '../mail/mail.service';
import { NotificationsService } from '../notifications/notifications.service';
import type { ConnectedChain } from './chain-connections';
import type { ChainDepositRecord } from './chain-deposits.repository';
import { DepositHoldsRepository } from './deposit-holds.repository';

/** `txid:index` of a payment. */
const keyOf = (output: { txid: string; index?: number; outputIndex?: number }) => `${output.txid}:${output.index ?? output.outputIndex}`;

/**
 * Sanctions screening of chain deposits (issue 35): the addresses a mined payment to a customer came from — EVM: the
 * transaction's sender and a token Transfer's `from`, read with the block; UTXO: the previous outputs of its inputs,
 * asked of the node (`getrawtransaction`, which needs `-txindex=1` for inputs already mined) — checked against the
 * list. A match is recorded (sanctions_hits kind 'deposit'), the account frozen by the system and every admin told, in
 * the transaction that records the block; `cp_credit_chain_deposit` then holds the deposit (hold 'sanctions') instead
 * of crediting it, for an admin to release.
 */
@Injectable()
export class DepositScreeningService {
  private readonly logger = new Logger('DepositScreening');
  /** Networks whose node could not tell some inputs' addresses (warned once per process). */
  private readonly warned = new Set<string>();

  constructor(
    private readonly sanctions: SanctionsService,
    private readonly freezes: AccountFreezesService,
    private readonly notifications: NotificationsService,
    private readonly mail: MailService,
    private readonly holds: DepositHoldsRepository,
  ) {}

  /**
   * The listed sending addresses of each payment (by `txid:index`; only payments with a match), before the block's
   * transaction: nothing is asked of the node while the network's list is empty.
   */
  async screen(chain: ConnectedChain, blockHash: string, paid: ChainOutput[]): Promise<Map<string, string[]>> {
    const matches = new Map<string, string[]>();
    if (!paid.length || !(await this.sanctions.hasListFor(chain.network))) return matches;
    const sendersByTx = new Map<string, string[]>();
    for (const txid of new Set(paid.filter((o) => !o.senders).map((o) => o.txid))) {
      if (!chain.node.sendersOf) continue;
      const senders = await chain.node.sendersOf(txid, blockHash);
      if (!senders.complete && !this.warned.has(chain.network)) {
        this.warned.add(chain.network);
        this.logger.warn(
          `${chain.network}: the node could not tell the sending address of some deposits' inputs (run it with -txindex=1): those inputs are not screened`,
        );
      }
      sendersByTx.set(txid, senders.addresses);
    }
    const sendersOf = (output: ChainOutput) => output.senders ?? sendersByTx.get(output.txid) ?? [];
    const candidates = [...new Set(paid.flatMap(sendersOf))].map((address) => ({ network: chain.network, address }));
    const listed = await this.sanctions.listed(candidates);
    if (!listed.length) return matches;
    // The list holds addresses as normalised for the network (so does the hit).
    const listedSet = new Set(listed.map((l) => l.address));
    for (const output of paid) {
      const hits = sendersOf(output)
        .map((address) => normaliseAddress(chain.network, address))
        .filter((address) => listedSet.has(address));
      if (hits.length) matches.set(keyOf(output), [...new Set(hits)]);
    }
    return matches;
  }

  /**
   * Records the matches of the deposits just recorded, freezes their customers and tells every admin, in the block's
   * transaction. A replayed block records nothing twice (one hit per deposit and address).
   */
  async flag(chain: ConnectedChain, deposits: ChainDepositRecord[], matches: Map<string, string[]>, tx: Tx): Promise<void> {
    if (!matches.size) return;
    const network = findNetwork(chain.network)?.shortName ?? chain.network;
    let admins: Array<{ id: string; name: string; email: string }> | undefined;
    for (const deposit of deposits) {
      const addresses = matches.get(keyOf(deposit));
      if (!addresses) continue;
      let recorded = false;
      for (const address of addresses) {
        const hit = { userId: deposit.userId, network: chain.network, address, token: deposit.token, amount: deposit.amount, txid: deposit.txid };
        if (await this.sanctions.recordDepositHit({ ...hit, chainDepositId: deposit.id }, tx)) recorded = true;
      }
      if (!recorded) continue;
      const frozen = await this.freezes.freezeBySystem(
        deposit.userId,
        `A deposit came from a sanctioned address (${chain.network} ${addresses.join(', ')}, transaction ${deposit.txid}).`,
        tx,
      );
      this.logger.warn(
        `ALERT sanctions: deposit ${deposit.txid}:${deposit.outputIndex} (${deposit.amount} ${deposit.token}) to customer ${deposit.userId} came from a listed ${chain.network} address: flagged, to be held${frozen ? ', the account frozen' : ''}`,
      );
      admins ??= await this.holds.activeAdmins(tx);
      const text = `A deposit of ${deposit.amount} ${deposit.token.toUpperCase()} on ${network} to customer ${deposit.userId} came from the sanctioned address ${addresses.join(', ')} (transaction ${deposit.txid}). It is held once confirmed${frozen ? ' and the account is frozen' : ''}: see Back office → Compliance and Chain → Held deposits.`;
      for (const admin of admins) {
        await this.notifications.notify({ userId: admin.id, title: 'Deposit from a sanctioned address', message: text, status: 'rejected' }, tx);
        await this.mail.send(
          { to: admin.email, subject: `ALERT: a deposit from a sanctioned address (${network})`, text: `Hello ${admin.name},\n\n${text}\n` },
          tx,
        );
      }
    }
  }
}
