import { plain } from '../ledger/money';

/** What every back-office view of one chain deposit (the chain status list, a held one, one under review) reads of it. */
export interface ChainDepositRow {
  id: string;
  network: string;
  txid: string;
  outputIndex: number;
  userId: string;
  token: string;
  /** The coin's symbol (null for a coin no longer listed: its id stands in). */
  symbol: string | null;
  amount: string;
  transactionId: string | null;
}

/** The fields every back-office view shows of a chain deposit, as the contract names them. */
export function chainDepositFields(row: ChainDepositRow) {
  return {
    _id: row.id,
    network: row.network,
    txHash: row.txid,
    outputIndex: row.outputIndex,
    userId: row.userId,
    token: row.token,
    symbol: (row.symbol ?? row.token).toUpperCase(),
    amount: plain(row.amount),
    transactionId: row.transactionId,
  };
}
