import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ColdPayoutsPanel } from '../components/ColdPayoutsPanel';
import { CreateDepositModal } from '../components/CreateDepositModal';
import { PageToolbar } from '../components/PageToolbar';
import { SearchBox } from '../components/SearchBox';
import { TransactionsTable, WAITING, type Waiting } from '../components/TransactionRows';
import { useModalTarget } from '../hooks/useModalTarget';

const isWaiting = (value: string | null): value is Waiting => (WAITING as readonly string[]).includes(value ?? '');

export default function TransactionsPage() {
  const [search, setSearch] = useState('');
  const [reloadKey, setReloadKey] = useState(0);
  const creating = useModalTarget<true>(() => setReloadKey((key) => key + 1));
  // The withdrawal queue lives in the address (?waiting=review): the dashboard links to each.
  const [params, setParams] = useSearchParams();
  const waitingParam = params.get('waiting');
  const waiting = isWaiting(waitingParam) ? waitingParam : '';
  const setWaiting = (value: Waiting | '') =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value) next.set('waiting', value);
        else next.delete('waiting');
        return next;
      },
      { replace: true },
    );
  return (
    <>
      <PageToolbar title="Transactions" actionLabel="Create Deposit" onAction={() => creating.open(true)} />
      <ColdPayoutsPanel />
      <div className="admin-filters">
        <SearchBox label="Search transactions" placeholder="Customer email or name, or a transaction hash" onSearch={setSearch} />
      </div>
      <TransactionsTable search={search} reloadKey={reloadKey} waiting={waiting} onWaitingChange={setWaiting} />
      {creating.target ? <CreateDepositModal onClose={creating.close} onDone={creating.done} /> : null}
    </>
  );
}
