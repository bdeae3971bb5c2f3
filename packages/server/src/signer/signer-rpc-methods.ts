/**
 * The Bitcoin Core RPC methods the signer process calls on its hot wallet: what its RPC user must be allowed
 * (`-rpcwhitelist=<user>:<methods>`; the API's are WATCHER_RPC_METHODS, src/chain-core/node-rpc-methods.ts). It funds,
 * signs and bumps payments, and unlocks the coins of a payment it did not sign after all (`lockunspent true`); it never
 * broadcasts, and never unlocks the wallet (no `walletpassphrase`).
 */
export const SIGNER_RPC_METHODS = [
  'walletcreatefundedpsbt',
  'walletprocesspsbt',
  'finalizepsbt',
  'decoderawtransaction',
  'decodepsbt',
  'getaddressinfo',
  'lockunspent',
  'getrawchangeaddress',
  'estimatesmartfee',
  'getnetworkinfo',
  'psbtbumpfee',
  // Whether the wallet is locked, when it signed nothing (an encrypted wallet nobody unlocked: the payout waits).
  'getwalletinfo',
] as const;
