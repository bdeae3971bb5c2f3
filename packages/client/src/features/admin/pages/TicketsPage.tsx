import { formatDateTime } from '../../../lib/format';
import { useState, type FormEvent } from 'react';
import { Spinner } from '../../../components/Spinner';
import { adminToast, serverMessage } from '../lib/adminToast';
import { ChoiceSelect } from '../components/ChoiceSelect';
import { DataTable } from '../components/DataTable';
import { Field, FormError } from '../components/Field';
import { Modal } from '../components/Modal';
import { PAGE_SIZE, useCursorPager } from '../components/Pager';
import { PageToolbar } from '../components/PageToolbar';
import { useAdminAction } from '../hooks/useAdminAction';
import { useCloseTicketMutation, useReplyTicketMutation, useTicketQuery, useTicketsQuery } from '../store/adminApi';
import './TicketsPage.css';

function imageUrl(image: string): string {
  return /^https?:\/\//.test(image) || image.startsWith('/') ? image : `/images/${image}`;
}

function TicketModal({ id, onClose, onChanged }: { id: string; onClose: () => void; onChanged: () => void }) {
  const ticket = useTicketQuery({ id }, { refetchOnMountOrArgChange: true });
  const [reply, replyState] = useReplyTicketMutation();
  const [close, closeState] = useCloseTicketMutation();
  const [message, setMessage] = useState('');
  const { error, setError, run } = useAdminAction();
  const data = ticket.data;

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (!message.trim()) return setError('A reply is required.');
    setError(null);
    if (await run(() => reply({ id, replyTicketDto: { message: message.trim() } }).unwrap(), { success: 'Reply sent', failure: 'The reply was not sent.' })) {
      setMessage('');
      ticket.refetch();
      onChanged();
    }
  };
  const closeTicket = async () => {
    try {
      await close({ id }).unwrap();
      adminToast.success('Ticket closed');
      ticket.refetch();
      onChanged();
    } catch (failure) {
      console.error(failure);
      setError(serverMessage(failure, 'The ticket was not closed.'));
    }
  };

  return (
    <Modal title={data ? data.subject : 'Ticket'} onClose={onClose} wide>
      {ticket.isLoading ? <Spinner /> : null}
      {ticket.isError ? <FormError message={serverMessage(ticket.error, 'The ticket could not be loaded.')} /> : null}
      {data ? (
        <>
          <p>
            <span className={`status ${data.status}`}>{data.status}</span> <span className="muted">{data.email}</span> ·{' '}
            <span className="muted">{formatDateTime(data.createdAt)}</span>
          </p>
          <p style={{ whiteSpace: 'pre-wrap' }}>{data.note}</p>
          {data.image ? (
            <a href={imageUrl(data.image)} target="_blank" rel="noreferrer">
              <img className="ticket-image" src={imageUrl(data.image)} alt={`Image attached to ${data.subject}`} />
            </a>
          ) : null}
          {data.replies && data.replies.length > 0 ? (
            <>
              <h3>Replies</h3>
              <ul className="ticket-thread">
                {data.replies.map((item, index) => (
                  <li key={item._id ?? index}>
                    <small className="muted">{formatDateTime(item.createdAt)}</small>
                    <p style={{ margin: '0.25rem 0 0', whiteSpace: 'pre-wrap' }}>{item.message}</p>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {data.status !== 'closed' ? (
            <form className="admin-form" onSubmit={send} noValidate>
              <Field label="Reply">
                <textarea rows={4} value={message} onChange={(event) => setMessage(event.target.value)} />
              </Field>
              <FormError message={error} />
              <div className="admin-actions">
                <button type="button" className="button" onClick={closeTicket} disabled={closeState.isLoading}>
                  Close Ticket
                </button>
                <button type="submit" className="button primary" disabled={replyState.isLoading || !message.trim()}>
                  {replyState.isLoading ? 'Processing...' : 'Send Reply'}
                </button>
              </div>
            </form>
          ) : (
            <FormError message={error} />
          )}
        </>
      ) : null}
    </Modal>
  );
}

const TICKET_STATUSES = ['open', 'closed'] as const;

export default function TicketsPage() {
  const [status, setStatus] = useState<'' | 'open' | 'closed'>('');
  const pager = useCursorPager(status);
  const tickets = useTicketsQuery({ limit: PAGE_SIZE, cursor: pager.cursor, status: status || undefined }, { refetchOnMountOrArgChange: true });
  const [openId, setOpenId] = useState<string | null>(null);
  return (
    <>
      <PageToolbar title="Tickets" />
      <div className="admin-filters">
        <ChoiceSelect label="Status" none="All" values={TICKET_STATUSES} value={status} onChange={setStatus} />
      </div>
      <DataTable
        query={tickets}
        loadError="The tickets could not be loaded."
        loadingLabel="Loading tickets"
        pager={pager}
        nextCursor={tickets.data?.nextCursor}
        columns={['Subject', 'Email', 'Status', 'Replies', 'Date', 'Action']}
        rows={tickets.data?.items ?? []}
        empty="No Tickets"
      >
        {(ticket) => (
          <tr key={ticket._id}>
            <td>{ticket.subject}</td>
            <td>{ticket.email}</td>
            <td>
              <span className={`status ${ticket.status}`}>{ticket.status}</span>
            </td>
            <td>
              {ticket.replies}
              {ticket.image ? <span className="muted"> · image</span> : null}
            </td>
            <td>{formatDateTime(ticket.createdAt)}</td>
            <td>
              <button type="button" className="button small" onClick={() => setOpenId(ticket._id)} aria-label={`Open ticket ${ticket.subject}`}>
                Open
              </button>
            </td>
          </tr>
        )}
      </DataTable>
      {openId ? <TicketModal id={openId} onClose={() => setOpenId(null)} onChanged={() => tickets.refetch()} /> : null}
    </>
  );
}
