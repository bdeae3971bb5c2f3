import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useGetNotificationsQuery, useReadNotificationMutation, type NotificationDto } from '../../../api/generated/notificationsApi.generated';
import { useLiveEvents } from '../../../core/liveEvents';
import { useAppSelector } from '../../../core/hooks';
import { SkeletonList } from '../../../components/Skeleton';
import { LongValue } from '../../../components/LongValue';
import { formatDate, previewWords } from '../../../lib/text';
import './NotificationsPage.css';

export default function NotificationsPage() {
  useLiveEvents();
  const navigate = useNavigate();
  const hasToken = useAppSelector((state) => Boolean(state.session.user?.token));
  const { data, isLoading, error } = useGetNotificationsQuery(undefined, { skip: !hasToken });
  const [readNotification] = useReadNotificationMutation();
  const [openId, setOpenId] = useState<string | null>(null);
  useEffect(() => {
    if (error) console.error('Could not load notifications', error);
  }, [error]);
  const opened = data?.find((n) => n._id === openId);

  function openItem(item: NotificationDto) {
    setOpenId(item._id);
    if (!item.read)
      readNotification({ id: item._id })
        .unwrap()
        .catch((e: unknown) => console.error('Could not mark as read', e));
  }

  return (
    <div className="wallet-shell">
      <header className="wallet-topbar">
        <button type="button" className="icon-button" aria-label="Back" onClick={() => (window.history.length > 1 ? navigate(-1) : navigate('/wallet'))}>
          <span aria-hidden="true">←</span>
        </button>
        <h1 style={{ margin: 0, fontSize: '1.4rem' }}>Notifications</h1>
      </header>
      <main id="main">
        {isLoading ? (
          <SkeletonList count={5} label="Loading notifications" className="notification-list" />
        ) : !data?.length ? (
          <p className="muted">You have no notifications yet.</p>
        ) : (
          <ul className="notification-list">
            {data.map((item) => (
              <li key={item._id}>
                <button
                  type="button"
                  className="notification-item"
                  onClick={() => openItem(item)}
                  data-testid="notification-item"
                  data-read={item.read ? 'true' : 'false'}
                >
                  <span className="unread-slot">{!item.read && <span className="unread-dot" data-testid="unread-dot" role="img" aria-label="Unread" />}</span>
                  <span className="notification-text">
                    <span className="row-between">
                      <strong>{item.title}</strong>
                      <span className="muted">{formatDate(item.createdAt)}</span>
                    </span>
                    <span className="muted notification-preview">{previewWords(item.message)}</span>
                    {item.status && (
                      <>
                        <br />
                        <span className={`status-${item.status}`}>{item.status}</span>
                      </>
                    )}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </main>
      {opened && <NotificationDetail item={opened} onClose={() => setOpenId(null)} />}
    </div>
  );
}

/** "… Transaction hash: <hash>" at a message's end: the hash on a line of its own, shortened in the middle, with Copy. */
const TRAILING_HASH = /\s*Transaction hash:\s*(\S+)\s*$/;

function splitHash(message: string): { text: string; hash?: string } {
  const match = TRAILING_HASH.exec(message);
  return match ? { text: message.slice(0, match.index), hash: match[1] } : { text: message };
}

function NotificationDetail({ item, onClose }: { item: NotificationDto; onClose: () => void }) {
  const { text, hash } = splitHash(item.message);
  const closeButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    closeButton.current?.focus();
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="modal" role="dialog" aria-modal="true" aria-labelledby="notification-title">
      <div className="overlay" aria-hidden="true" onClick={onClose} />
      <div className="card modal-card">
        <div className="row-between">
          <h2 id="notification-title" style={{ margin: 0 }}>
            {item.title}
          </h2>
          <button ref={closeButton} type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            <span aria-hidden="true">✕</span>
          </button>
        </div>
        <p className="muted">{formatDate(item.createdAt)}</p>
        {item.status && <p className={`status-${item.status}`}>Status: {item.status}</p>}
        <p className="notification-message">{text}</p>
        {hash && (
          <dl className="notification-values">
            <LongValue label="Transaction hash" value={hash} testId="notification-hash" />
          </dl>
        )}
        {item.transactionId && (
          <p>
            <Link to={`/wallet?transaction=${encodeURIComponent(item.transactionId)}`} className="button" data-testid="notification-transaction">
              View the transaction
            </Link>
          </p>
        )}
      </div>
    </div>
  );
}
