import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { useGetNotificationsQuery } from '../../../api/endpoints';
import { useLiveEvents } from '../../../core/liveEvents';
import { useAppSelector } from '../../../core/hooks';
import { useLogout } from '../../../core/session/useLogout';
import { BellIcon, EyeIcon, EyeOffIcon } from '../../../components/Icons';
import { Logo } from '../../../components/Logo';
import { PriceBanner } from '../../../components/PriceBanner';
import { Spinner } from '../../../components/Spinner';
import { ThemeToggle } from '../../../components/ThemeToggle';
import { formatUsd } from '../../../lib/format';
import { usePersistentState } from '../../../lib/usePersistentState';
import { usePanels } from '../hooks/usePanels';
import { useTokenCacheClearing, useWalletData } from '../hooks/useWalletData';
import { TokenPicker } from './TokenPicker';
import { TokenRowButton } from './TokenRowButton';
import { IncomingDeposits } from './IncomingDeposits';
import { useIncomingDeposits } from '../hooks/useIncomingDeposits';
import { ActionButton } from './ActionButton';
import { LimitsLeft } from './LimitsLeft';
import './wallet.css';
import './WalletPage.css';

const ReceiveView = lazy(() => import('./ReceiveView'));
const CoinPage = lazy(() => import('./CoinPage'));
const SendFlow = lazy(() => import('./SendFlow'));
const SwapPanel = lazy(() => import('./SwapPanel'));
const HistoryPanel = lazy(() => import('./HistoryPanel'));
const AddressBookPanel = lazy(() => import('./AddressBookPanel'));

export default function WalletPage() {
  useTokenCacheClearing();
  useLiveEvents();
  const { rows, totalBalance, ready } = useWalletData();
  const panels = usePanels();
  const [seeBalance, setSeeBalance] = usePersistentState('seeBalance', true);
  const location = useLocation();
  const { open, current } = panels;
  const incoming = useIncomingDeposits();
  const nameOf = (id: string) => rows?.find((row) => row.token.id === id)?.token.name ?? id;

  // /wallet?transaction=<id> (a notification's link) opens History on that transaction.
  const [searchParams, setSearchParams] = useSearchParams();
  const [linkedTransaction, setLinkedTransaction] = useState<string | undefined>(undefined);
  useEffect(() => {
    const id = searchParams.get('transaction');
    if (!id) return;
    setLinkedTransaction(id);
    open('openTransaction');
    setSearchParams({}, { replace: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [searchParams]);

  // /wallet/send opens the send flow.
  useEffect(() => {
    if (location.pathname === '/wallet/send' && current !== 'sendCoin' && current !== 'openChooseSend') open('openChooseSend');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.pathname]);

  const rowFor = (id: string | undefined) => rows?.find((row) => row.token.id === id);

  function renderPanel() {
    if (!rows) return null;
    switch (panels.current) {
      case 'sendCoin': {
        const row = rowFor(panels.selectedToken?.id);
        return row ? <SendFlow row={row} onClose={() => panels.close('sendCoin')} onDone={panels.closeAll} /> : null;
      }
      case 'openReceive': {
        const token = rows.find((r) => r.token.id === panels.selectedReceiveToken?.id)?.token ?? panels.selectedReceiveToken;
        return token ? <ReceiveView token={token} tokens={rows.map((r) => r.token)} onClose={() => panels.close('openReceive')} /> : null;
      }
      case 'openChooseSend':
        return (
          <TokenPicker
            title="Choose a token to send"
            rows={rows}
            onClose={() => panels.close('openChooseSend')}
            onPick={(row) => {
              panels.setSelectedToken(row.token);
              panels.open('sendCoin');
            }}
          />
        );
      case 'openChooseReceive':
        return (
          <TokenPicker
            title="Choose a token to receive"
            rows={rows}
            onClose={() => panels.close('openChooseReceive')}
            onPick={(row) => {
              panels.setSelectedReceiveToken(row.token);
              panels.open('openReceive');
            }}
          />
        );
      case 'openSwap':
        return <SwapPanel rows={rows} initialFrom={panels.openSwapFrom} onClose={() => panels.close('openSwap')} />;
      case 'openAddresses':
        return <AddressBookPanel tokens={rows.map((r) => r.token)} onClose={() => panels.close('openAddresses')} />;
      case 'openTransaction':
        return (
          <HistoryPanel
            rows={rows}
            initialToken={panels.historyToken}
            initialTransactionId={linkedTransaction}
            onClose={() => {
              setLinkedTransaction(undefined);
              panels.close('openTransaction');
            }}
          />
        );
      case 'openCoinpage': {
        const row = rowFor(panels.tokenData?.id);
        return row ? <CoinPage row={row} panels={panels} seeBalance={seeBalance} onClose={() => panels.close('openCoinpage')} /> : null;
      }
      default:
        return null;
    }
  }

  return (
    <div className="wallet-shell">
      <WalletTopBar />
      <main id="main">
        <h1 className="visually-hidden">Wallet</h1>
        <PriceBanner />
        {!ready ? (
          <Spinner label="Loading your wallet" />
        ) : panels.current ? (
          <Suspense fallback={<Spinner label="Loading" />}>{renderPanel() ?? <MissingPanel onBack={panels.closeAll} />}</Suspense>
        ) : (
          <>
            <section className="balance-card" aria-label="Main Wallet">
              <div className="row-between">
                <span className="label">Main Wallet</span>
                <button
                  type="button"
                  className="icon-button"
                  onClick={() => setSeeBalance(!seeBalance)}
                  aria-pressed={!seeBalance}
                  aria-label={seeBalance ? 'Hide balance' : 'Show balance'}
                >
                  {seeBalance ? <EyeIcon /> : <EyeOffIcon />}
                </button>
              </div>
              <div className="balance-amount" data-testid="total-balance">
                {seeBalance ? formatUsd(totalBalance) : '*****'}
              </div>
            </section>
            <nav className="actions" aria-label="Wallet actions">
              <ActionButton icon="↑" label="Send" onClick={() => open('openChooseSend')} />
              <ActionButton icon="↓" label="Receive" onClick={() => open('openChooseReceive')} />
              <ActionButton icon="⇄" label="Swap" onClick={() => open('openSwap')} />
              <ActionButton icon="☰" label="History" onClick={() => open('openTransaction')} />
            </nav>
            <p className="center">
              <button type="button" className="link-button" onClick={() => open('openAddresses')}>
                Address book
              </button>
            </p>
            <LimitsLeft />
            <IncomingDeposits deposits={incoming} nameOf={nameOf} onOpen={() => open('openTransaction')} />
            {/* Nothing held and nothing on its way: then the wallet is empty. */}
            {totalBalance === 0 && !incoming.length && (
              <section className="card empty-wallet" aria-labelledby="empty-wallet-heading">
                <h2 id="empty-wallet-heading">Your wallet is empty</h2>
                <p className="muted">Receive crypto from another wallet to get started: pick a token and share its address.</p>
                <button type="button" className="button" onClick={() => open('openChooseReceive')}>
                  Receive crypto
                </button>
              </section>
            )}
            <section aria-labelledby="crypto-heading">
              <h2 id="crypto-heading">Crypto</h2>
              <ul className="token-list">
                {rows!.map((row) => (
                  <li key={row.token.id}>
                    <TokenRowButton
                      row={row}
                      seeBalance={seeBalance}
                      incoming={incoming.filter((tx) => tx.token === row.token.id)}
                      onClick={() => {
                        panels.setTokenData(row.token);
                        open('openCoinpage');
                      }}
                    />
                  </li>
                ))}
              </ul>
            </section>
          </>
        )}
      </main>
    </div>
  );
}

function MissingPanel({ onBack }: { onBack: () => void }) {
  return (
    <div className="panel">
      <p>This token is no longer available.</p>
      <button type="button" className="button" onClick={onBack}>
        Back to wallet
      </button>
    </div>
  );
}

function WalletTopBar() {
  const [menuOpen, setMenuOpen] = useState(false);
  const [profileOpen, setProfileOpen] = useState(false);
  const logout = useLogout();
  const hasToken = useAppSelector((state) => Boolean(state.session.user?.token));
  const name = useAppSelector((state) => state.session.user?.name ?? '');
  const { data: notifications, error } = useGetNotificationsQuery(undefined, { skip: !hasToken });
  useEffect(() => {
    if (error) console.error('Could not load notifications', error);
  }, [error]);
  const unread = (notifications ?? []).filter((n) => !n.read).length;
  useEffect(() => {
    if (!menuOpen && !profileOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setMenuOpen(false);
        setProfileOpen(false);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen, profileOpen]);

  return (
    <header className="wallet-topbar">
      <button
        type="button"
        className="icon-button"
        aria-label="Open menu"
        aria-expanded={menuOpen}
        aria-controls="wallet-menu"
        onClick={() => setMenuOpen(true)}
      >
        <span aria-hidden="true">☰</span>
      </button>
      <Logo />
      <ThemeToggle />
      <Link
        to="/notifications"
        className="icon-button row"
        style={{ justifyContent: 'center' }}
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
      >
        <BellIcon />
        {unread > 0 && (
          <span className="badge" data-testid="unread-count" aria-hidden="true">
            {unread}
          </span>
        )}
      </Link>
      <div style={{ position: 'relative' }}>
        <button
          type="button"
          className="icon-button"
          aria-label="Profile menu"
          aria-expanded={profileOpen}
          aria-haspopup="true"
          onClick={() => setProfileOpen((v) => !v)}
        >
          <span aria-hidden="true" className="avatar">
            {name.trim().charAt(0).toUpperCase() || '?'}
          </span>
        </button>
        {profileOpen && (
          <div className="card profile-menu" role="menu">
            <Link role="menuitem" to="/user-profile">
              Profile Overview
            </Link>
            <Link role="menuitem" to="/profile-setting">
              Profile Settings
            </Link>
            <button role="menuitem" type="button" className="link-button" onClick={logout}>
              Logout
            </button>
          </div>
        )}
      </div>
      {menuOpen && (
        <>
          <div className="overlay" aria-hidden="true" onClick={() => setMenuOpen(false)} />
          <nav id="wallet-menu" className="side-menu" aria-label="Wallet menu">
            <button type="button" className="icon-button" aria-label="Close menu" onClick={() => setMenuOpen(false)} autoFocus>
              <span aria-hidden="true">✕</span>
            </button>
            <Link to="/">Home</Link>
            <Link to="/market">Market</Link>
            <Link to="/ticket">Ticket</Link>
            <button type="button" className="menu-item" onClick={logout}>
              Logout
            </button>
          </nav>
        </>
      )}
    </header>
  );
}
