/**
 * The per-network settings only the signer process reads (src/signer/signer-config.ts): its keys — the node wallet it
 * signs with, through its own RPC user, and the EVM key file. The API's configuration refuses them, so no key ever
 * sits in the API's environment. (Kept apart from config.ts, which reads files, so the key-boundary check can tell a
 * module that names these settings from one that reads them.)
 */
export const SIGNER_ONLY_SETTINGS = ['WALLET', 'KEY_FILE'] as const;
