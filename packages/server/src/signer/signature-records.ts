import { sql } from 'drizzle-orm';
import type { SqlExecutor } from '../db/sql-executor';

export type SignatureKind = 'payout' | 'replacement' | 'sweep' | 'top_up';

/** One transaction the signer signed (migration 0022, `signer_signatures`). */
export interface SignatureRecord {
  kind: SignatureKind;
  subjectId: string;
  network: string;
  replacesTxid: string;
  fromAddress: string | null;
  nonce: bigint | null;
  inputs: string[] | null;
  txid: string;
  rawTx: string;
  feeBase: bigint;
  chargedFeeBase: bigint | null;
  amountBase: bigint | null;
}

interface Row {
  kind: SignatureKind;
  subject_id: string;
  network: string;
  replaces_txid: string;
  from_address: string | null;
  nonce: string | null;
  inputs: string[] | null;
  txid: string;
  raw_tx: string;
  fee_base: string;
  charged_fee_base: string | null;
  amount_base: string | null;
}

const big = (value: string | null) => (value === null ? null : BigInt(value));

function record(row: Row): SignatureRecord {
  return {
    kind: row.kind,
    subjectId: row.subject_id,
    network: row.network,
    replacesTxid: row.replaces_txid,
    fromAddress: row.from_address,
    nonce: big(row.nonce),
    inputs: row.inputs,
    txid: row.txid,
    rawTx: row.raw_tx,
    feeBase: BigInt(row.fee_base),
    chargedFeeBase: big(row.charged_fee_base),
    amountBase: big(row.amount_base),
  };
}

const COLUMNS = sql.raw(
  'kind, subject_id::text as subject_id, network, replaces_txid, from_address, nonce::text as nonce, inputs, txid, raw_tx, fee_base::text as fee_base, charged_fee_base::text as charged_fee_base, amount_base::text as amount_base',
);

/** The SQL of the signer's own record: what it signed, for which request; read and written in the signer's transaction. */
export const signatureRecords = {
  /**
   * Serialises the requests about one subject (a withdrawal or a sweep) until the transaction ends, so two requests
   * arriving together cannot both sign.
   */
  async lockSubject(executor: SqlExecutor, subjectId: string): Promise<void> {
    await executor.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`signer:${subjectId}`}, 0))`);
  },

  async find(executor: SqlExecutor, kind: SignatureKind, subjectId: string, replacesTxid = ''): Promise<SignatureRecord | undefined> {
    const result = (await executor.execute(
      sql`select ${COLUMNS} from signer_signatures where kind = ${kind} and subject_id = ${subjectId} and replaces_txid = ${replacesTxid}`,
    )) as unknown as { rows: Row[] };
    return result.rows[0] && record(result.rows[0]);
  },

  /** A payment of `subjectId` (its first one or a replacement) by its txid; undefined: this signer never signed it. */
  async findPayment(executor: SqlExecutor, subjectId: string, network: string, txid: string): Promise<SignatureRecord | undefined> {
    const result = (await executor.execute(
      sql`select ${COLUMNS} from signer_signatures where kind in ('payout', 'replacement') and subject_id = ${subjectId} and network = ${network} and txid = ${txid}`,
    )) as unknown as { rows: Row[] };
    return result.rows[0] && record(result.rows[0]);
  },

  /**
   * The payments (UTXO) this signer signed on `network` lately that are not on their way yet: the API never stored
   * them (it died after the signer answered) or stored them and has not broadcast them (no payout row past `signed`,
   * no kept version has their txid). Their inputs must stay locked until these very bytes are sent — the node forgets
   * its locks when it restarts — or a new payout would spend them and the recorded payment could never be sent.
   */
  async unclaimed(executor: SqlExecutor, network: string): Promise<string[]> {
    const result = (await executor.execute(sql`
      select s.raw_tx from signer_signatures s
      where s.network = ${network} and s.kind = 'payout' and s.signed_at > now() - interval '30 days'
        and not exists (select 1 from payouts p where p.network = s.network and p.txid = s.txid and p.state <> 'signed')
        and not exists (select 1 from payout_replaced_txs r where r.network = s.network and r.txid = s.txid)`)) as unknown as {
      rows: Array<{ raw_tx: string }>;
    };
    return result.rows.map((row) => row.raw_tx);
  },

  async insert(executor: SqlExecutor, r: SignatureRecord): Promise<void> {
    const text = (value: bigint | null) => (value === null ? null : value.toString());
    await executor.execute(sql`insert into signer_signatures
      (kind, subject_id, network, replaces_txid, from_address, nonce, inputs, txid, raw_tx, fee_base, charged_fee_base, amount_base)
      values (${r.kind}, ${r.subjectId}, ${r.network}, ${r.replacesTxid}, ${r.fromAddress}, ${text(r.nonce)}::numeric,
        ${r.inputs ? sql`${`{${r.inputs.join(',')}}`}::text[]` : sql`null`}, ${r.txid}, ${r.rawTx}, ${r.feeBase.toString()}::numeric,
        ${text(r.chargedFeeBase)}::numeric, ${text(r.amountBase)}::numeric)`);
  },
};
