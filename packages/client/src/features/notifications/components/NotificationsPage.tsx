import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useGetNotificationsQuery, useReadNotificationMutation, type NotificationDto } from '../../../api/generated/notificationsApi.generated';
import { useLiveEvents } from '../../../core/liveEvents';
import { useAppSelector } from '../../../core/hooks';
import { SkeletonList } from '../../../components/Skeleton';
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
                  <span>
                    <span className="row-between">
                      <strong>{item.title}</strong>
                      <span className="muted">{formatDate(item.createdAt)}</span>
                    </span>
                    <span className="muted">{previewWords(item.message)}</span>
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

function NotificationDetail({ item, onClose }: { item: NotificationDto; onClose: () => void }) {
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
        <p style={{ whiteSpace: 'pre-wrap' }}>{item.message}</p>
      </div>
    </div>
  );
}
