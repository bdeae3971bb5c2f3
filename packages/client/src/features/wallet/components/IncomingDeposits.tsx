import { Link } from 'react-router-dom';
import type { TransactionDto } from '../../../api/generated/walletApi.generated';
import { formatCoinAmount, formatUsd } from '../../../lib/format';
import { confirmationsText } from '../hooks/useIncomingDeposits';

/** The wallet's "Incoming" card: each deposit on its way, its amount and its confirmations counting up. */
export function IncomingDeposits({ deposits, nameOf, onOpen }: { deposits: TransactionDto[]; nameOf: (id: string) => string; onOpen: () => void }) {
  if (!deposits.length) return null;
  return (
    <section className="card incoming" aria-labelledby="incoming-heading" data-testid="incoming-deposits">
      <h2 id="incoming-heading">Incoming</h2>
      <p className="muted incoming-hint">Seen on the network. Each is added to your balance once fully confirmed.</p>
      <ul aria-live="polite">
        {deposits.map((tx) => (
          <li key={tx._id} data-testid="incoming-deposit">
            <button type="button" className="incoming-row" onClick={onOpen}>
              <span>
                <strong>Receiving {nameOf(tx.token)}</strong>
                <br />
                {tx.hold ? (
                  <span className="status-pending incoming-held" data-testid="incoming-held">
                    {tx.note}
                  </span>
                ) : (
                  <span className="status-pending" data-testid="incoming-confirmations">
                    {confirmationsText(tx)}
                  </span>
                )}
              </span>
              <span className="end">
                <strong data-testid="incoming-amount">
                  +{formatCoinAmount(tx.coinAmount, tx.token)} {tx.symbol.toUpperCase()}
                </strong>
                <br />
                <span className="muted">{formatUsd(tx.amount)}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {deposits.some((tx) => tx.hold === 'limit') && (
        <p className="incoming-hint">
          <Link to="/profile/verification" data-testid="incoming-verify">
            Verify to release held deposits
          </Link>
        </p>
      )}
    </section>
  );
}
