/** The package ships no types; `decode` throws on a bad prefix, type or checksum; `encode` builds a CashAddr. */
declare module 'cashaddrjs' {
  export function decode(address: string): { prefix: string; type: 'P2PKH' | 'P2SH'; hash: Uint8Array };
  export function encode(prefix: string, type: 'P2PKH' | 'P2SH', hash: Uint8Array): string;
}
