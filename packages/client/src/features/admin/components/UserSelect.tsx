import { useEffect, useState } from 'react';
import { type AdminUser, useLazyAdminUsersQuery } from '../store/adminApi';
import { serverMessage } from './adminToast';
import { Field, FormError } from './Field';

/** A labelled user picker that loads customers 100 at a time from the server (never the whole table at once). */
export function UserSelect({ value, onChange, label = 'User' }: { value: string; onChange: (userId: string) => void; label?: string }) {
  const [load, { isFetching }] = useLazyAdminUsersQuery();
  const [users, setUsers] = useState<AdminUser[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const more = async (cursor?: string) => {
    try {
      const page = await load({ limit: 100, cursor }).unwrap();
      setUsers((previous) => (cursor ? [...previous, ...page.items] : page.items));
      setNextCursor(page.nextCursor);
      setError(null);
    } catch (failure) {
      console.error(failure);
      setError(serverMessage(failure, 'The users could not be loaded.'));
    }
  };

  useEffect(() => {
    void more();
    // Loads the first page once, when the picker appears.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div className="admin-field">
      <Field label={label}>
        <select value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{isFetching && users.length === 0 ? 'Loading users…' : 'Select a user'}</option>
          {users.map((user) => (
            <option key={user._id} value={user._id}>
              {user.name} ({user.email})
            </option>
          ))}
        </select>
      </Field>
      <FormError message={error} />
      {error ? (
        <button type="button" className="button small" onClick={() => void more()} disabled={isFetching}>
          Try again
        </button>
      ) : null}
      {nextCursor ? (
        <button type="button" className="button small" onClick={() => void more(nextCursor)} disabled={isFetching}>
          Load more users
        </button>
      ) : null}
    </div>
  );
}
