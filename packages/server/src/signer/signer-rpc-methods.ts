/**
 * The Bitcoin Core RPC methods the signer process calls on its hot wallet: what its RPC user must be allowed
 * (`-rpcwhitelist=<user>:<methods>`; the API's are WATCHER_RPC_METHODS, src/chain-core/node-rpc-methods.ts). It funds,
 * signs and bumps payments; it never broadcasts.
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
] as const;
