import { useState } from 'react';
import { Link } from 'react-router-dom';
import { countryDisplayName } from '../../../lib/countryNames';
import { formatQuantity, formatUsd } from '../../../lib/format';
import { DataTable } from '../components/DataTable';
import { EditBalanceModal } from '../components/EditBalanceModal';
import { PAGE_SIZE, useCursorPager } from '../components/Pager';
import { ExportButton } from '../components/ExportButton';
import { PageToolbar } from '../components/PageToolbar';
import { RowActions } from '../components/RowActions';
import { SearchBox } from '../components/SearchBox';
import { useDeleteAction } from '../components/useDeleteAction';
import { useModalTarget } from '../hooks/useModalTarget';
import { type AdminUser, useAdminUsersQuery, useDeleteUserMutation } from '../store/adminApi';

export default function UsersPage() {
  const [search, setSearch] = useState('');
  const pager = useCursorPager(search);
  const users = useAdminUsersQuery({ limit: PAGE_SIZE, cursor: pager.cursor, search: search || undefined }, { refetchOnMountOrArgChange: true });
  const [deleteUser] = useDeleteUserMutation();
  const editing = useModalTarget<AdminUser>(users.refetch);
  const { remove, error, dialog } = useDeleteAction(users.refetch);

  return (
    <>
      <PageToolbar title="Users" />
      <div className="admin-filters">
        <SearchBox label="Search users" placeholder="Part of the email or name" onSearch={setSearch} />
        <ExportButton path="/api/admin/export/users" label="Export users (CSV)" />
      </div>
      <DataTable
        query={users}
        loadError="The users could not be loaded."
        loadingLabel="Loading users"
        error={error}
        pager={pager}
        nextCursor={users.data?.nextCursor}
        columns={['Name', 'Email', 'Country', 'Balances', 'Action']}
        rows={users.data?.items ?? []}
        empty={search ? 'No user matches this search' : 'No Users'}
      >
        {(user) => (
          <tr key={user._id}>
            <td>
              <Link to={`/admin/users/${user._id}`}>{user.name}</Link>
            </td>
            <td>{user.email}</td>
            <td>{countryDisplayName(user.country)}</td>
            <td>
              {user.balances.every((row) => Number(row.balance) === 0 && Number(row.coinAmount ?? 0) === 0) ? (
                <span className="muted">None</span>
              ) : (
                <ul className="balances">
                  {user.balances
                    .filter((row) => Number(row.balance) !== 0 || Number(row.coinAmount ?? 0) !== 0)
                    .map((row) => (
                      <li key={row.tokenId ?? row.token}>
                        {row.token}: <span className="mono">{formatQuantity(row.coinAmount ?? '')}</span> {row.symbol?.toUpperCase() ?? ''}{' '}
                        <span className="muted">({formatUsd(row.balance)})</span>
                      </li>
                    ))}
                </ul>
              )}
            </td>
            <td>
              <RowActions
                editText="Edit Balance"
                editLabel={`Edit balance of ${user.email}`}
                deleteLabel={`Delete ${user.email}`}
                onEdit={() => editing.open(user)}
                onDelete={() =>
                  remove(() => deleteUser({ id: user._id }).unwrap(), { success: 'User deleted successfully', failure: 'The user was not deleted.' })
                }
              />
            </td>
          </tr>
        )}
      </DataTable>
      {editing.target ? <EditBalanceModal user={editing.target} onClose={editing.close} onDone={editing.done} /> : null}
      {dialog}
    </>
  );
}
