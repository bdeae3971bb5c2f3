import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Spinner } from '../../../components/Spinner';
import { formatDate, formatDateTime, formatQuantity, formatUsd } from '../../../lib/format';
import { countryDisplayName } from '../../../lib/countryNames';
import { serverMessage } from '../lib/adminToast';
import { CreateDepositModal } from '../components/CreateDepositModal';
import { Table } from '../components/DataTable';
import { EditBalanceModal } from '../components/EditBalanceModal';
import { Field, FormError } from '../components/Field';
import { FormModal } from '../components/FormModal';
import { FreezeAccountModal } from '../components/FreezeAccountModal';
import { PageToolbar } from '../components/PageToolbar';
import { TransactionsTable } from '../components/TransactionRows';
import { useAdminAction } from '../hooks/useAdminAction';
import { useDeleteAction } from '../components/useDeleteAction';
import { useModalTarget } from '../hooks/useModalTarget';
import {
  type AdminUser,
  type UserDetail,
  useDeleteUserMutation,
  useEraseUserMutation,
  useSendNotificationMutation,
  useUserDetailQuery,
} from '../store/adminApi';

function NotifyModal({ user, onClose, onDone }: { user: UserDetail['profile']; onClose: () => void; onDone: () => void }) {
  const [send, { isLoading }] = useSendNotificationMutation();
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const { error, setError, run } = useAdminAction();
  const submit = async () => {
    if (!title.trim() || !message.trim()) return setError('Title and message are required.');
    const request = () => send({ userId: user._id, sendNotificationDto: { userId: user._id, title: title.trim(), message: message.trim() } }).unwrap();
    if (await run(request, { success: 'User Notified Successfully', failure: 'The notification was not sent.', toastFailure: true })) onDone();
  };
  return (
    <FormModal title={`Notify ${user.name}`} onClose={onClose} onSubmit={submit} error={error} busy={isLoading} submitLabel="Send">
      <Field label="Title">
        <input value={title} onChange={(event) => setTitle(event.target.value)} />
      </Field>
      <Field label="Message">
        <textarea rows={4} value={message} onChange={(event) => setMessage(event.target.value)} />
      </Field>
    </FormModal>
  );
}

type Dialog = 'balance' | 'notify' | 'deposit' | 'freeze';

/** One customer on one page: profile, balances, transactions, notifications, sessions, tickets, approvals and audit entries, with the usual actions. */
export default function UserDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const detail = useUserDetailQuery({ id }, { refetchOnMountOrArgChange: true });
  const [reloadKey, setReloadKey] = useState(0);
  const refresh = () => {
    void detail.refetch();
    setReloadKey((key) => key + 1);
  };
  const dialog = useModalTarget<Dialog>(refresh);
  const [deleteUser] = useDeleteUserMutation();
  const { remove, error, dialog: confirm } = useDeleteAction(() => navigate('/admin/users'));
  // A closed account's personal data (documents, sealed details, address book, sign-in secrets): the page reloads after.
  const [eraseUser] = useEraseUserMutation();
  const { remove: erase, error: eraseError, dialog: confirmErase } = useDeleteAction(refresh);

  if (detail.isLoading) return <Spinner label="Loading the customer" />;
  if (detail.isError || !detail.data) return <FormError message={serverMessage(detail.error, 'The customer could not be loaded.')} />;
  const { profile, balances, notifications, tickets, audit, approvals, sessions, totalBalance } = detail.data;
  const asAdminUser: AdminUser = {
    _id: profile._id,
    name: profile.name,
    email: profile.email,
    country: profile.country,
    balances: balances.map((b) => ({ token: b.name, balance: b.balance, tokenId: b.tokenId, symbol: b.symbol, coinAmount: b.coinAmount })),
  };
  const held = balances.filter((b) => Number(b.coinAmount) !== 0);
  const pendingApprovals = approvals.filter((a) => a.status === 'pending');

  return (
    <>
      <p>
        <Link to="/admin/users">← Users</Link>
      </p>
      <PageToolbar title={profile.name} />
      <FormError message={error ?? eraseError} />
      <section className="admin-section" aria-labelledby="profile-heading">
        <h2 id="profile-heading">Profile</h2>
        <p>
          <strong className="break-anywhere">{profile.email}</strong> · {countryDisplayName(profile.country)} · customer since {formatDate(profile.createdAt)}
          {profile.deactivatedAt ? <span className="status rejected"> deactivated {formatDate(profile.deactivatedAt)}</span> : null}
        </p>
        {profile.freeze ? (
          <p className="break-anywhere">
            <span className="status rejected">Frozen</span> since {formatDateTime(profile.freeze.frozenAt)}
            {profile.freeze.frozenBy ? '' : ' by sanctions screening'}: {profile.freeze.reason}
          </p>
        ) : null}
        {profile.erasedAt ? (
          <p>
            <span className="status rejected">Personal data erased</span> {formatDate(profile.erasedAt)}: the ledger keeps its entries under this id.
          </p>
        ) : profile.deactivatedAt ? (
          <div className="row-actions">
            <button
              type="button"
              className="button small danger"
              onClick={() =>
                erase(() => eraseUser({ id: profile._id }).unwrap(), {
                  success: 'Personal data erased',
                  failure: 'The personal data was not erased.',
                  reloadOnFailure: true,
                })
              }
            >
              Erase personal data
            </button>
          </div>
        ) : (
          <div className="row-actions">
            <button type="button" className="button small" onClick={() => dialog.open('balance')}>
              Edit Balance
            </button>
            <button type="button" className="button small" onClick={() => dialog.open('notify')}>
              Notify
            </button>
            <button type="button" className="button small" onClick={() => dialog.open('deposit')}>
              Create Deposit
            </button>
            <button type="button" className="button small danger" onClick={() => dialog.open('freeze')}>
              {profile.freeze ? 'Unfreeze' : 'Freeze'}
            </button>
            <button
              type="button"
              className="button small danger"
              onClick={() =>
                remove(() => deleteUser({ id: profile._id }).unwrap(), { success: 'User deleted successfully', failure: 'The user was not deleted.' })
              }
            >
              Deactivate
            </button>
          </div>
        )}
      </section>

      <section className="admin-section" aria-labelledby="balances-heading">
        <h2 id="balances-heading">Balances · {formatUsd(totalBalance)}</h2>
        <Table columns={['Token', 'Quantity', 'Value']} rows={held} empty="No balance">
          {(b) => (
            <tr key={b.tokenId}>
              <td>{b.name}</td>
              <td className="mono">
                {formatQuantity(b.coinAmount)} {b.symbol.toUpperCase()}
              </td>
              <td>{formatUsd(b.balance)}</td>
            </tr>
          )}
        </Table>
      </section>

      {pendingApprovals.length ? (
        <section className="admin-section" aria-labelledby="approvals-heading">
          <h2 id="approvals-heading">Waiting for approval</h2>
          <ul className="break-anywhere">
            {pendingApprovals.map((a) => (
              <li key={a._id}>
                {a.summary} ({formatUsd(a.usdValue)}), requested by {a.requestedBy.email} {formatDateTime(a.createdAt)} ·{' '}
                <Link to="/admin/approvals">Approvals</Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className="admin-section" aria-labelledby="transactions-heading">
        <h2 id="transactions-heading">Transactions</h2>
        <TransactionsTable userId={profile._id} reloadKey={reloadKey} onChanged={() => void detail.refetch()} />
      </section>

      <section className="admin-section" aria-labelledby="notifications-heading">
        <h2 id="notifications-heading">Notifications</h2>
        <Table columns={['Date', 'Title', 'Message', 'Read']} rows={notifications} empty="No notifications">
          {(n) => (
            <tr key={n._id}>
              <td className="nowrap">{formatDateTime(n.createdAt)}</td>
              <td>{n.title}</td>
              <td>{n.message}</td>
              <td>{n.read ? 'yes' : 'no'}</td>
            </tr>
          )}
        </Table>
      </section>

      <section className="admin-section" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Sessions</h2>
        <Table columns={['Signed in', 'Last seen', 'Address', 'Device']} rows={sessions} empty="No live sessions">
          {(session) => (
            <tr key={session.id}>
              <td className="nowrap">{formatDateTime(session.createdAt)}</td>
              <td className="nowrap">{formatDateTime(session.lastSeenAt)}</td>
              <td>{session.ip ?? '–'}</td>
              <td>{session.userAgent ?? '–'}</td>
            </tr>
          )}
        </Table>
      </section>

      <section className="admin-section" aria-labelledby="tickets-heading">
        <h2 id="tickets-heading">Tickets</h2>
        <Table columns={['Date', 'Subject', 'Status']} rows={tickets} empty="No tickets">
          {(t) => (
            <tr key={t._id}>
              <td className="nowrap">{formatDateTime(t.createdAt)}</td>
              <td>{t.subject}</td>
              <td>
                <span className={`status ${t.status}`}>{t.status}</span>
              </td>
            </tr>
          )}
        </Table>
      </section>

      <section className="admin-section" aria-labelledby="audit-heading">
        <h2 id="audit-heading">Audit entries about this customer</h2>
        <Table columns={['Date', 'Action', 'By', 'Details']} rows={audit} empty="No audit entries">
          {(a) => (
            <tr key={a._id}>
              <td className="nowrap">{formatDateTime(a.createdAt)}</td>
              <td>{a.action}</td>
              <td>{a.actorEmail ?? 'system'}</td>
              <td className="mono small-text">{a.after ? JSON.stringify(a.after) : ''}</td>
            </tr>
          )}
        </Table>
      </section>

      {dialog.target === 'balance' ? <EditBalanceModal user={asAdminUser} onClose={dialog.close} onDone={dialog.done} /> : null}
      {dialog.target === 'notify' ? <NotifyModal user={profile} onClose={dialog.close} onDone={dialog.done} /> : null}
      {dialog.target === 'freeze' ? <FreezeAccountModal user={profile} frozen={profile.freeze !== null} onClose={dialog.close} onDone={dialog.done} /> : null}
      {dialog.target === 'deposit' ? <CreateDepositModal user={profile} onClose={dialog.close} onDone={dialog.done} /> : null}
      {confirm}
      {confirmErase}
    </>
  );
}
