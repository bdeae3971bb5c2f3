import type { SqlExecutor } from '../db/sql-executor';
import type { ChainEndpoint } from '../chain-core/chain-endpoint';
import type { PayoutRequest, SignedPayout, StoredPayment } from '../chain-core/signer-contract';

/** A network as the signer signs on it: the chain core's endpoint and the fee ceiling (`CHAIN_<NETWORK>_MAX_FEE`, the signer's own). */
export type SignerChain = ChainEndpoint & { maxFee: string };

/**
 * What holds a hot key inside the signer process: signs one approved withdrawal's payment and its fee bumps, checking
 * the request against the database itself (`executor`: the signer's own transaction). A KMS/HSM goes here: an
 * implementation whose `sign` hands the checked, unsigned transaction to the device instead of a local key.
 */
export interface HotSigner {
  /** The hot address (EVM) or the node wallet's name (UTXO) payouts are paid from. */
  readonly source: string;
  /** Refuses (SignerRefusal) unless the database shows the request's withdrawal approved with exactly its output. */
  approved(request: PayoutRequest, executor: SqlExecutor): Promise<unknown>;
  /** What a signed payment spends: the sending address and nonce (EVM) or the inputs, sorted "txid:vout" (UTXO). */
  spends(rawTx: string): Promise<{ fromAddress: string | null; nonce: bigint | null; inputs: string[] | null }>;
  sign(request: PayoutRequest, executor: SqlExecutor): Promise<SignedPayout>;
  replace(request: PayoutRequest, payment: StoredPayment, executor: SqlExecutor): Promise<SignedPayout | undefined>;
}
