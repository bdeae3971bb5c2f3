import { toMoney } from '../ledger/money';

/** What every back-office row of one chain deposit (a held one, one under review) reads of it. */
export interface ChainDepositRow {
  id: string;
  network: string;
  txid: string;
  outputIndex: number;
  userId: string;
  userEmail: string;
  token: string;
  symbol: string | null;
  amount: string;
  transactionId: string | null;
}

/** The fields the back office shows for any chain deposit (held, or under review), as the contract names them. */
export function chainDepositFields(row: ChainDepositRow) {
  return {
    _id: row.id,
    network: row.network,
    txHash: row.txid,
    outputIndex: row.outputIndex,
    userId: row.userId,
    userEmail: row.userEmail,
    token: row.token,
    symbol: (row.symbol ?? row.token).toUpperCase(),
    amount: toMoney(row.amount).toFixed(),
    transactionId: row.transactionId,
  };
}
