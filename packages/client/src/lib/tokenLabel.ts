/** A token as people read it, the same on every screen: "Litecoin (LTC)" (its name, then its symbol in capitals). */
export function tokenLabel(name: string, symbol: string): string {
  return `${name} (${symbol.toUpperCase()})`;
}
