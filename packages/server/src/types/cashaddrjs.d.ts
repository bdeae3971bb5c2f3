/** The package ships no types; only `decode` is used (throws on a bad prefix, type or checksum). */
declare module 'cashaddrjs' {
  export function decode(address: string): { prefix: string; type: 'P2PKH' | 'P2SH'; hash: Uint8Array };
}
