import { type KeyboardEvent, useState } from 'react';
import { type DepositTagOwnerDto, useLazyGetDepositTagOwnerQuery } from '../../../api/generated/adminChainApi.generated';
import { serverMessage } from '../lib/adminToast';
import { Field } from './Field';
import './DepositTagLookup.css';

const MEMO_NETWORKS = [
  { id: 'xrp', label: 'XRP Ledger (destination tag)' },
  { id: 'stellar', label: 'Stellar (memo)' },
] as const;

/**
 * A deposit to a memo network's shared address (xrp, stellar) names its customer by the destination tag or memo it
 * carries: the admin types it and gets the customer (`GET /api/admin/deposit-tags/:network/:tag`).
 */
export function DepositTagLookup({ onFound }: { onFound: (owner: DepositTagOwnerDto) => void }) {
  const [network, setNetwork] = useState<(typeof MEMO_NETWORKS)[number]['id']>('xrp');
  const [tag, setTag] = useState('');
  const [found, setFound] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [lookup, { isFetching }] = useLazyGetDepositTagOwnerQuery();

  const find = async () => {
    setFound(null);
    if (!tag.trim()) return setProblem('Type the destination tag or memo the deposit carries.');
    try {
      const owner = await lookup({ network, tag: tag.trim() }).unwrap();
      setProblem(owner.active ? null : 'This account is deactivated: no deposit can be recorded for it.');
      setFound(`${owner.label} ${owner.tag} is ${owner.name} (${owner.email}).`);
      onFound(owner);
    } catch (error) {
      setProblem(serverMessage(error, 'The customer could not be looked up.'));
    }
  };
  // Enter finds the customer (it must not submit the deposit form around it).
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void find();
  };

  return (
    <fieldset className="deposit-tag-lookup">
      <legend>Memo networks: find the customer by the deposit's tag</legend>
      <Field label="Tag network">
        <select value={network} onChange={(event) => setNetwork(event.target.value as typeof network)}>
          {MEMO_NETWORKS.map((item) => (
            <option key={item.id} value={item.id}>
              {item.label}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Destination tag or memo" error={problem}>
        <input value={tag} onChange={(event) => setTag(event.target.value)} onKeyDown={onKeyDown} inputMode="numeric" autoComplete="off" />
      </Field>
      <button type="button" className="button" onClick={() => void find()} disabled={isFetching}>
        {isFetching ? 'Looking up…' : 'Find customer'}
      </button>
      {found ? (
        <p className="muted" role="status" data-testid="deposit-tag-owner">
          {found}
        </p>
      ) : null}
    </fieldset>
  );
}
