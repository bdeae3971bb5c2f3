import { useState } from 'react';
import { useAppSelector } from '../../../core/hooks';
import { formatDate } from '../../../lib/format';
import { DataTable } from '../components/DataTable';
import { Field } from '../components/Field';
import { FormModal } from '../components/FormModal';
import { PageToolbar } from '../components/PageToolbar';
import { FAILED, useAdminAction } from '../hooks/useAdminAction';
import { useDeleteAction } from '../components/useDeleteAction';
import { useModalTarget } from '../hooks/useModalTarget';
import { useAdminsQuery, useCreateAdminMutation, useDeleteAdminMutation } from '../store/adminApi';

function AddAdminModal({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const [create, { isLoading }] = useCreateAdminMutation();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { error, setError, run } = useAdminAction();
  const submit = async () => {
    if (!name.trim() || !email.trim() || !password) return setError('Name, email and password are required.');
    if (password.length < 12) return setError('An administrator password must be at least 12 characters.');
    const request = () => create({ createAdminDto: { name: name.trim(), email: email.trim(), password } }).unwrap();
    if (await run(request, { success: 'Administrator added', ...FAILED })) onDone();
  };
  return (
    <FormModal title="Add administrator" onClose={onClose} onSubmit={submit} error={error} busy={isLoading} submitLabel="Add">
      <Field label="Name">
        <input value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" />
      </Field>
      <Field label="Email">
        <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} autoComplete="off" />
      </Field>
      <Field label="Password" hint="At least 12 characters. The new admin signs in at /login-admin.">
        <input type="password" value={password} onChange={(event) => setPassword(event.target.value)} autoComplete="new-password" />
      </Field>
    </FormModal>
  );
}

/** Several admins: add one, deactivate one (never yourself, never the last active one). */
export default function AdminsPage() {
  const me = useAppSelector((state) => state.session.user?._id);
  const admins = useAdminsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [deactivate] = useDeleteAdminMutation();
  const adding = useModalTarget<true>(admins.refetch);
  const { remove, error, dialog } = useDeleteAction(admins.refetch);
  return (
    <>
      <PageToolbar title="Admins" actionLabel="Add Admin" onAction={() => adding.open(true)} />
      <DataTable
        query={admins}
        loadError="The administrators could not be loaded."
        loadingLabel="Loading administrators"
        error={error}
        columns={['Name', 'Email', 'Since', 'Status', 'Action']}
        rows={admins.data ?? []}
        empty="No administrators"
      >
        {(admin) => (
          <tr key={admin._id}>
            <td>
              {admin.name}
              {admin._id === me ? <span className="muted"> (you)</span> : null}
            </td>
            <td>{admin.email}</td>
            <td className="nowrap">{formatDate(admin.createdAt)}</td>
            <td>
              <span className={`status ${admin.active ? 'approved' : 'rejected'}`}>{admin.active ? 'active' : 'deactivated'}</span>
            </td>
            <td>
              {admin.active && admin._id !== me ? (
                <button
                  type="button"
                  className="button danger small"
                  aria-label={`Deactivate ${admin.email}`}
                  onClick={() =>
                    remove(() => deactivate({ id: admin._id }).unwrap(), {
                      success: 'Administrator deactivated',
                      failure: 'The administrator was not deactivated.',
                      reloadOnFailure: true,
                    })
                  }
                >
                  Deactivate
                </button>
              ) : null}
            </td>
          </tr>
        )}
      </DataTable>
      {adding.target ? <AddAdminModal onClose={adding.close} onDone={adding.done} /> : null}
      {dialog}
    </>
  );
}
