import type { ReactNode } from 'react';

/** The guides' page titles, by their path under the repository's docs folder (what a link names when it has no text). */
const TITLES: Record<string, string> = {
  'operate/README.md': 'Operating Coinpurse',
  'operate/configuration.md': 'Configuration',
  'operate/chain-nodes.md': 'Chain nodes and deposits',
  'operate/signer.md': 'The signer process',
  'operate/withdrawals.md': 'Withdrawals on the chain',
  'operate/cold-wallets-and-reserves.md': 'Cold wallets and reserves',
  'operate/back-office.md': 'The back office',
  'operate/observability.md': 'Observability',
  'operate/fees.md': 'Fees, revenue and the house position',
};

/**
 * A link to a page of the guides: the app serves the repository's docs folder at /docs/<page> (or redirects to its
 * published copy, DOCS_URL), so every screen links the same way, to the guide of the version it runs. Opens beside the
 * screen the admin is working in.
 */
export function DocsLink({ page, section, children }: { page: string; section?: string; children?: ReactNode }) {
  return (
    <a className="docs-link" href={`/docs/${page}${section ? `#${section}` : ''}`} target="_blank" rel="noopener">
      {children ?? `Guide: ${TITLES[page] ?? page}`}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}
