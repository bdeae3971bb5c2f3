import { useState } from 'react';
import { ColdPayoutsPanel } from '../components/ColdPayoutsPanel';
import { CreateDepositModal } from '../components/CreateDepositModal';
import { PageToolbar } from '../components/PageToolbar';
import { SearchBox } from '../components/SearchBox';
import { TransactionsTable } from '../components/TransactionRows';
import { useModalTarget } from '../hooks/useModalTarget';

export default function TransactionsPage() {
  const [search, setSearch] = useState('');
  const [reloadKey, setReloadKey] = useState(0);
  const creating = useModalTarget<true>(() => setReloadKey((key) => key + 1));
  return (
    <>
      <PageToolbar title="Transactions" actionLabel="Create Deposit" onAction={() => creating.open(true)} />
      <ColdPayoutsPanel />
      <div className="admin-filters">
        <SearchBox label="Search transactions" placeholder="Customer email or name, or a transaction hash" onSearch={setSearch} />
      </div>
      <TransactionsTable search={search} reloadKey={reloadKey} />
      {creating.target ? <CreateDepositModal onClose={creating.close} onDone={creating.done} /> : null}
    </>
  );
}
