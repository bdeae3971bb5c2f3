import { useState, type FormEvent } from 'react';
import { Spinner } from '../../../components/Spinner';
import { adminToast, serverMessage } from '../components/adminToast';
import { useConfirmDelete } from '../components/ConfirmDialog';
import { Field, FormError } from '../components/Field';
import { Modal } from '../components/Modal';
import { type AdminToken, useAddTokenMutation, useAdminTokensQuery, useDeleteTokenMutation, useEditTokenMutation } from '../store/adminApi';

function AddTokenModal({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const [addToken, { isLoading }] = useAddTokenMutation();
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || !address.trim()) return setError('Coin id and wallet address are required.');
    setError(null);
    try {
      await addToken({ addTokenDto: { name: name.trim(), address: address.trim() } }).unwrap();
      adminToast.success('Coin added successfully');
      onDone();
    } catch (failure) {
      console.error(failure);
      setError(serverMessage(failure, 'Failed'));
      adminToast.error('Failed');
    }
  };
  return (
    <Modal title="Add Coin" onClose={onClose}>
      <form className="admin-form" onSubmit={submit} noValidate>
        <Field label="Coin Id" hint="The coin's id in the market list, e.g. bitcoin, ethereum, tether.">
          <input value={name} onChange={(event) => setName(event.target.value)} required autoComplete="off" />
        </Field>
        <Field label="Wallet Address">
          <input value={address} onChange={(event) => setAddress(event.target.value)} required autoComplete="off" />
        </Field>
        <FormError message={error} />
        <div className="admin-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={isLoading || !name.trim() || !address.trim()}>
            {isLoading ? 'Processing...' : 'Add Coin'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function EditTokenModal({ token, onClose, onDone }: { token: AdminToken; onClose: () => void; onDone: () => void }) {
  const [editToken, { isLoading }] = useEditTokenMutation();
  const [name, setName] = useState(token.name);
  const [address, setAddress] = useState(token.address ?? '');
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || !address.trim()) return setError('Name and address are required.');
    setError(null);
    try {
      await editToken({ editTokenDto: { token: name.trim(), address: address.trim(), tokenId: token._id, oldToken: token.name } }).unwrap();
      adminToast.success('Token updated successfully');
      onDone();
    } catch (failure) {
      console.error(failure);
      setError(serverMessage(failure, 'Failed'));
      adminToast.error('Failed');
    }
  };
  return (
    <Modal title="Edit Token" onClose={onClose}>
      <form className="admin-form" onSubmit={submit} noValidate>
        <Field label="Token Name">
          <input value={name} onChange={(event) => setName(event.target.value)} required autoComplete="off" />
        </Field>
        <Field label="Address">
          <input value={address} onChange={(event) => setAddress(event.target.value)} required autoComplete="off" />
        </Field>
        <FormError message={error} />
        <div className="admin-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={isLoading || !name.trim() || !address.trim()}>
            {isLoading ? 'Processing...' : 'Edit'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

export default function TokensPage() {
  const tokens = useAdminTokensQuery(undefined, { refetchOnMountOrArgChange: true });
  const [deleteToken] = useDeleteTokenMutation();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<AdminToken | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const { ask, dialog } = useConfirmDelete();
  const rows = tokens.data ?? [];

  const remove = (token: AdminToken) =>
    ask(async () => {
      try {
        await deleteToken({ id: token._id, name: token.name }).unwrap();
        adminToast.success('Coin deleted successfully');
      } catch (failure) {
        console.error(failure);
        setDeleteError(serverMessage(failure, 'Failed'));
        adminToast.error('Failed');
        return;
      }
      setDeleteError(null);
      tokens.refetch();
    });

  return (
    <>
      <div className="admin-toolbar">
        <h1>Tokens</h1>
        <button type="button" className="button primary" onClick={() => setAdding(true)}>
          Add Coin
        </button>
      </div>
      <FormError message={deleteError ?? (tokens.isError ? serverMessage(tokens.error, 'The tokens could not be loaded.') : null)} />
      {tokens.isLoading ? (
        <Spinner />
      ) : (
        <div className="table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Wallet Address</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={3} className="empty">
                    No Tokens
                  </td>
                </tr>
              ) : (
                rows.map((token) => (
                  <tr key={token._id}>
                    <td>{token.name}</td>
                    <td className="mono">{token.address ?? 'null'}</td>
                    <td>
                      <div className="row-actions">
                        <button type="button" className="button small" onClick={() => setEditing(token)} aria-label={`Edit ${token.name}`}>
                          Edit
                        </button>
                        <button type="button" className="button small danger" onClick={() => remove(token)} aria-label={`Delete ${token.name}`}>
                          Delete
                        </button>
                      </div>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      )}
      {adding ? (
        <AddTokenModal
          onClose={() => setAdding(false)}
          onDone={() => {
            setAdding(false);
            tokens.refetch();
          }}
        />
      ) : null}
      {editing ? (
        <EditTokenModal
          token={editing}
          onClose={() => setEditing(null)}
          onDone={() => {
            setEditing(null);
            tokens.refetch();
          }}
        />
      ) : null}
      {dialog}
    </>
  );
}
