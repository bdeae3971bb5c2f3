/**
 * The Bitcoin Core RPC methods each process calls on a UTXO node: what its RPC user must be allowed
 * (`-rpcwhitelist=<user>:<methods>` with `-rpcwhitelistdefault=0`): the API's here, the signer's in
 * src/signer/signer-rpc-methods.ts. src/signer/key-boundary.spec.ts fails when the code calls a method its list
 * lacks, so an operator who allows exactly these never meets a refused call.
 */

/** The API's read-only user: the watchers, the payout job's broadcasts and confirmations, the reserves, the cold side. */
export const WATCHER_RPC_METHODS = [
  // Watching blocks and the mempool for deposits; screening a deposit's senders (the deposit with its block hash, its
  // inputs' previous transactions: -txindex=1).
  'getblockcount',
  'getblockhash',
  'getblock',
  'getrawtransaction',
  'getrawmempool',
  // Reserves: balances of addresses (deposit and cold) and of the hot wallet, whose coins (locked ones too: gettxout)
  // are counted once.
  'scantxoutset',
  'validateaddress',
  'getbalance',
  'listunspent',
  'listlockunspent',
  // Payouts: the fee estimate, broadcasts and the hot wallet's view of its payments.
  'estimatesmartfee',
  'sendrawtransaction',
  'gettransaction',
  // The cold side: the watch-only cold wallet funds the PSBTs an admin signs offline; a discard checks its inputs are
  // still unspent (gettxout) before it gives their locks back.
  'walletcreatefundedpsbt',
  'decodepsbt',
  'finalizepsbt',
  'decoderawtransaction',
  'testmempoolaccept',
  'getaddressinfo',
  'lockunspent',
  'gettxout',
] as const;
