import { useState, type FormEvent } from 'react';
import { adminToast, serverMessage } from '../components/adminToast';
import { Field, FormError } from '../components/Field';
import { UserSelect } from '../components/UserSelect';
import { useBroadcastMutation, useSendNotificationMutation } from '../store/adminApi';

function NotifyUserForm() {
  const [send, { isLoading }] = useSendNotificationMutation();
  const [userId, setUserId] = useState('');
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!userId || !title.trim() || !message.trim()) return setError('User, title and message are required.');
    setError(null);
    try {
      await send({ userId, sendNotificationDto: { userId, title: title.trim(), message: message.trim() } }).unwrap();
      adminToast.success('User Notified Successfully');
      setTitle('');
      setMessage('');
    } catch (failure) {
      console.error(failure);
      adminToast.error(serverMessage(failure, 'Error sending notification'));
    }
  };
  return (
    <section className="admin-section" aria-labelledby="notify-user-title">
      <h2 id="notify-user-title">Notify a user</h2>
      <form className="admin-form" onSubmit={submit} noValidate>
        <UserSelect value={userId} onChange={setUserId} />
        <Field label="Title">
          <input value={title} onChange={(event) => setTitle(event.target.value)} required autoComplete="off" />
        </Field>
        <Field label="Message">
          <textarea rows={4} value={message} onChange={(event) => setMessage(event.target.value)} required />
        </Field>
        <FormError message={error} />
        <div className="admin-actions">
          <button type="submit" className="button primary" disabled={isLoading || !userId || !title.trim() || !message.trim()}>
            {isLoading ? 'Processing...' : 'Send Notification'}
          </button>
        </div>
      </form>
    </section>
  );
}

function BroadcastForm() {
  const [broadcast, { isLoading }] = useBroadcastMutation();
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim() || !message.trim()) return;
    try {
      const result = (await broadcast({ broadcastNotificationDto: { title: title.trim(), message: message.trim() } }).unwrap()) as
        { sent?: number; count?: number } | undefined;
      const count = result?.sent ?? result?.count;
      adminToast.success(typeof count === 'number' ? `Notification sent to ${count} customers` : 'Notification sent to all customers');
      setTitle('');
      setMessage('');
    } catch (failure) {
      console.error(failure);
      adminToast.error(serverMessage(failure, 'Error sending notification'));
    }
  };
  return (
    <section className="admin-section" aria-labelledby="broadcast-title">
      <h2 id="broadcast-title">Notify all customers</h2>
      <form className="admin-form" onSubmit={submit} noValidate>
        <Field label="Broadcast title">
          <input value={title} onChange={(event) => setTitle(event.target.value)} required autoComplete="off" />
        </Field>
        <Field label="Broadcast message">
          <textarea rows={4} value={message} onChange={(event) => setMessage(event.target.value)} required />
        </Field>
        <div className="admin-actions">
          <button type="submit" className="button primary" disabled={isLoading || !title.trim() || !message.trim()}>
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
