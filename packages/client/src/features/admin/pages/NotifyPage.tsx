import { useState, type FormEvent } from 'react';
import { adminToast, serverMessage } from '../lib/adminToast';
import { Field, FormError } from '../components/Field';
import { UserSelect } from '../components/UserSelect';
import { useBroadcastMutation, useSendNotificationMutation } from '../store/adminApi';

/** A notification's title and message: `sent` toasts and clears them, `failed` toasts the server's reason. */
function useNotificationDraft() {
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  return {
    title,
    setTitle,
    message,
    setMessage,
    ready: Boolean(title.trim() && message.trim()),
    body: { title: title.trim(), message: message.trim() },
    sent: (text: string) => {
      adminToast.success(text);
      setTitle('');
      setMessage('');
    },
    failed: (failure: unknown) => {
      console.error(failure);
      adminToast.error(serverMessage(failure, 'Error sending notification'));
    },
  };
}

function NotificationFields({ draft, titleLabel, messageLabel }: { draft: ReturnType<typeof useNotificationDraft>; titleLabel: string; messageLabel: string }) {
  return (
    <>
      <Field label={titleLabel}>
        <input value={draft.title} onChange={(event) => draft.setTitle(event.target.value)} required autoComplete="off" />
      </Field>
      <Field label={messageLabel}>
        <textarea rows={4} value={draft.message} onChange={(event) => draft.setMessage(event.target.value)} required />
      </Field>
    </>
  );
}

function NotifyUserForm() {
  const [send, { isLoading }] = useSendNotificationMutation();
  const [userId, setUserId] = useState('');
  const draft = useNotificationDraft();
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!userId || !draft.ready) return setError('User, title and message are required.');
    setError(null);
    try {
      await send({ userId, sendNotificationDto: { userId, ...draft.body } }).unwrap();
      draft.sent('User Notified Successfully');
    } catch (failure) {
      draft.failed(failure);
    }
  };
  return (
    <section className="admin-section" aria-labelledby="notify-user-title">
      <h2 id="notify-user-title">Notify a user</h2>
      <form className="admin-form" onSubmit={submit} noValidate>
        <UserSelect value={userId} onChange={setUserId} />
        <NotificationFields draft={draft} titleLabel="Title" messageLabel="Message" />
        <FormError message={error} />
        <div className="admin-actions">
          <button type="submit" className="button primary" disabled={isLoading || !userId || !draft.ready}>
            {isLoading ? 'Processing...' : 'Send Notification'}
          </button>
        </div>
      </form>
    </section>
  );
}

function BroadcastForm() {
  const [broadcast, { isLoading }] = useBroadcastMutation();
  const draft = useNotificationDraft();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft.ready) return;
    try {
      const result = (await broadcast({ broadcastNotificationDto: draft.body }).unwrap()) as { sent?: number; count?: number } | undefined;
      const count = result?.sent ?? result?.count;
      draft.sent(typeof count === 'number' ? `Notification sent to ${count} customers` : 'Notification sent to all customers');
    } catch (failure) {
      draft.failed(failure);
    }
  };
  return (
    <section className="admin-section" aria-labelledby="broadcast-title">
      <h2 id="broadcast-title">Notify all customers</h2>
      <form className="admin-form" onSubmit={submit} noValidate>
        <NotificationFields draft={draft} titleLabel="Broadcast title" messageLabel="Broadcast message" />
        <div className="admin-actions">
          <button type="submit" className="button primary" disabled={isLoading || !draft.ready}>
            {isLoading ? 'Processing...' : 'Send to all customers'}
          </button>
        </div>
      </form>
    </section>
  );
}

export default function NotifyPage() {
  return (
    <>
      <h1>Notify Users</h1>
      <NotifyUserForm />
      <BroadcastForm />
    </>
  );
}
