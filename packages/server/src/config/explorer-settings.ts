/**
 * `CHAIN_<NETWORK>_EXPLORER_URL`: where a network's transactions and addresses are looked up, per network (any of the
 * registry's networks, with or without a node). Either a base URL, to which the network's own paths are added
 * (`https://litecoinspace.org/testnet` → `…/testnet/tx/<hash>`), or a pattern with `{tx}` (and `{address}`, else no
 * address links); `none`: no links. Unset: the network's mainnet explorer, or none when its node is a testnet or regtest.
 */
const EXPLORER_SETTING = /^CHAIN_([A-Z0-9_]+)_EXPLORER_URL$/;

/** The explorer settings given, by network id (`bitcoin-cash` from CHAIN_BITCOIN_CASH_EXPLORER_URL): a URL or 'none'. */
export function parseExplorerSettings(env: NodeJS.ProcessEnv, problems: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(env)) {
    const match = EXPLORER_SETTING.exec(name);
    const value = raw?.trim();
    if (!match || !value) continue;
    const network = match[1].toLowerCase().replace(/_/g, '-');
    if (value.toLowerCase() === 'none') {
      out[network] = 'none';
      continue;
    }
    let url: URL | undefined;
    try {
      url = new URL(value.replace(/\{(tx|address)\}/g, 'x'));
    } catch {
      url = undefined;
    }
    if (!url || !['http:', 'https:'].includes(url.protocol)) problems.push(`${name} must be an http or https URL, or none (got "${value}")`);
    else out[network] = value.replace(/\/+$/, '');
  }
  return out;
}
