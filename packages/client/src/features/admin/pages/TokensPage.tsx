import { useState } from 'react';
import { useGetNetworksQuery } from '../../../api/endpoints';
import { DataTable } from '../components/DataTable';
import { Field } from '../components/Field';
import { FormModal } from '../components/FormModal';
import { PageToolbar } from '../components/PageToolbar';
import { RowActions } from '../components/RowActions';
import { FAILED, useAdminAction } from '../hooks/useAdminAction';
import { useDeleteAction } from '../components/useDeleteAction';
import { useModalTarget } from '../hooks/useModalTarget';
import { tokenLabel } from '../../../lib/tokenLabel';
import { contractAddressProblem, editedContract } from '../lib/tokenContract';
import { type AdminToken, useAddTokenMutation, useAdminTokensQuery, useDeleteTokenMutation, useEditTokenMutation } from '../store/adminApi';

/** The networks of GET /crypto/networks; '' = the coin's native network (add) or unchanged (edit). */
function NetworkSelect({ value, onChange, none }: { value: string; onChange: (value: string) => void; none: string }) {
  const { data: networks } = useGetNetworksQuery();
  return (
    <Field label="Network" hint="Multi-network tokens such as tether need one; a coin with one native network (bitcoin, solana, ...) may leave it empty.">
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{none}</option>
        {(networks ?? []).map((network) => (
          <option key={network.id} value={network.id}>
            {network.name}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** The network of GET /crypto/networks with this id; undefined for '' (the coin's native network, which only the server knows). */
function useNetwork(id: string) {
  const { data: networks } = useGetNetworksQuery();
  return id ? networks?.find((network) => network.id === id) : undefined;
}

/**
 * The token's ERC-20 contract on its network (EVM networks only). Its problem shows under it once the admin has left
 * the field or tried to send the form.
 */
function ContractField({
  value,
  onChange,
  problem,
  shown,
  onLeave,
  hint,
}: {
  value: string;
  onChange: (value: string) => void;
  problem: string | null;
  shown: boolean;
  onLeave: () => void;
  hint: string;
}) {
  return (
    <Field label="Token Contract" hint={hint} error={shown ? problem : null}>
      <input value={value} onChange={(event) => onChange(event.target.value)} onBlur={onLeave} autoComplete="off" spellCheck={false} placeholder="0x…" />
    </Field>
  );
}

function AddTokenModal({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const [addToken, { isLoading }] = useAddTokenMutation();
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const [network, setNetwork] = useState('');
  const [contract, setContract] = useState('');
  const [contractLeft, setContractLeft] = useState(false);
  const contractProblem = contractAddressProblem(contract, useNetwork(network));
  const { error, setError, run } = useAdminAction();
  const submit = async () => {
    if (!name.trim() || !address.trim()) return setError('Coin id and wallet address are required.');
    if (contractProblem) return setContractLeft(true);
    setError(null);
    const request = () =>
      addToken({
        addTokenDto: {
          name: name.trim(),
          address: address.trim(),
          ...(network ? { network } : {}),
          ...(contract.trim() ? { contractAddress: contract.trim() } : {}),
        },
      }).unwrap();
    if (await run(request, { success: 'Coin added successfully', ...FAILED })) onDone();
  };
  return (
    <FormModal
      title="Add Coin"
      onClose={onClose}
      onSubmit={submit}
      error={error}
      busy={isLoading}
      submitLabel="Add Coin"
      submitDisabled={!name.trim() || !address.trim()}
    >
      <Field label="Coin Id" hint="The coin's id in the market list, e.g. bitcoin, ethereum, tether.">
        <input value={name} onChange={(event) => setName(event.target.value)} required autoComplete="off" />
      </Field>
      <NetworkSelect value={network} onChange={setNetwork} none="Native network of the coin" />
      <Field label="Wallet Address">
        <input value={address} onChange={(event) => setAddress(event.target.value)} required autoComplete="off" />
      </Field>
      <ContractField
        value={contract}
        onChange={setContract}
        problem={contractProblem}
        shown={contractLeft}
        onLeave={() => setContractLeft(Boolean(contract.trim()))}
        hint="An ERC-20 token on an EVM network (Ethereum, BNB Smart Chain, Polygon, ...): its contract there. Empty for a native coin."
      />
    </FormModal>
  );
}

function EditTokenModal({ token, onClose, onDone }: { token: AdminToken; onClose: () => void; onDone: () => void }) {
  const [editToken, { isLoading }] = useEditTokenMutation();
  const [name, setName] = useState(token.name);
  const [address, setAddress] = useState(token.address ?? '');
  const [network, setNetwork] = useState(token.network);
  const [contract, setContract] = useState(token.contractAddress ?? '');
  const [contractLeft, setContractLeft] = useState(false);
  const contractProblem = contractAddressProblem(contract, useNetwork(network || token.network));
  const { error, setError, run } = useAdminAction();
  const submit = async () => {
    if (!name.trim() || !address.trim()) return setError('Name and address are required.');
    if (contractProblem) return setContractLeft(true);
    setError(null);
    const contractChange = editedContract(contract, token.contractAddress, (network || token.network) !== token.network);
    const request = () =>
      editToken({
        editTokenDto: {
          token: name.trim(),
          address: address.trim(),
          tokenId: token._id,
          oldToken: token.name,
          ...(network ? { network } : {}),
          ...contractChange,
        },
      }).unwrap();
    if (await run(request, { success: 'Token updated successfully', ...FAILED })) onDone();
  };
  return (
    <FormModal
      title="Edit Token"
      onClose={onClose}
      onSubmit={submit}
      error={error}
      busy={isLoading}
      submitLabel="Save"
      submitDisabled={!name.trim() || !address.trim()}
    >
      <Field label="Token Name">
        <input value={name} onChange={(event) => setName(event.target.value)} required autoComplete="off" />
      </Field>
      <NetworkSelect value={network} onChange={setNetwork} none="Unchanged" />
      <Field label="Address">
        <input value={address} onChange={(event) => setAddress(event.target.value)} required autoComplete="off" />
      </Field>
      <ContractField
        value={contract}
        onChange={setContract}
        problem={contractProblem}
        shown={contractLeft}
        onLeave={() => setContractLeft(Boolean(contract.trim()))}
        hint="EVM networks only: the token's ERC-20 contract on this network. Empty removes it."
      />
    </FormModal>
  );
}

/** Where customers deposit this token on this network: each to their own address, a shared one (with their own tag), or nowhere yet. */
function DepositsGoTo({ token, memoLabel }: { token: AdminToken; memoLabel: string | null }) {
  if (token.perCustomerAddresses) return <span className="deposits-own">Each customer&apos;s own address (the network is connected to a node)</span>;
  if (!token.address) return <span className="not-set-up">Not set up: customers cannot deposit on this network yet.</span>;
  return (
    <>
      <span className="mono">{token.address}</span>
      <div className="muted">
        {memoLabel ? `Shared by every customer, each with their own ${memoLabel.toLowerCase()}` : 'Shared by every customer (set by an admin)'}
      </div>
    </>
  );
}

export default function TokensPage() {
  const tokens = useAdminTokensQuery(undefined, { refetchOnMountOrArgChange: true });
  const [deleteToken] = useDeleteTokenMutation();
  const adding = useModalTarget<true>(tokens.refetch);
  const editing = useModalTarget<AdminToken>(tokens.refetch);
  const { remove, error, dialog } = useDeleteAction(tokens.refetch);
  const { data: networks } = useGetNetworksQuery();
  const memoLabelOf = (id: string) => networks?.find((network) => network.id === id)?.memoLabel ?? null;

  return (
    <>
      <PageToolbar title="Tokens" actionLabel="Add Coin" onAction={() => adding.open(true)} />
      <DataTable
        query={tokens}
        loadError="The tokens could not be loaded."
        loadingLabel="Loading tokens"
        error={error}
        label="Tokens"
        columns={['Token', 'Network', 'Deposits go to', 'Token contract', 'Action']}
        rows={tokens.data ?? []}
        empty="No Tokens"
      >
        {(token) => (
          <tr key={token._id} data-testid={`token-${token.name}-${token.network}`}>
            <td>
              {tokenLabel(token.coinName, token.symbol)}
              <div className="muted">{token.name}</div>
            </td>
            <td>{token.networkName}</td>
            <td className="break-anywhere">
              <DepositsGoTo token={token} memoLabel={memoLabelOf(token.network)} />
            </td>
            <td className={token.contractAddress ? 'mono' : undefined}>{token.contractAddress ?? <span className="muted">—</span>}</td>
            <td>
              <RowActions
                editLabel={`Edit ${token.name} on ${token.networkName}`}
                deleteLabel={`Delete ${token.name} on ${token.networkName}`}
                onEdit={() => editing.open(token)}
                onDelete={() =>
                  remove(() => deleteToken({ id: token._id, name: token.name }).unwrap(), {
                    success: 'Coin deleted successfully',
                    ...FAILED,
                  })
                }
              />
            </td>
          </tr>
        )}
      </DataTable>
      {adding.target ? <AddTokenModal onClose={adding.close} onDone={adding.done} /> : null}
      {editing.target ? <EditTokenModal token={editing.target} onClose={editing.close} onDone={editing.done} /> : null}
      {dialog}
    </>
  );
}
