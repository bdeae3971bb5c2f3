import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useDropzone } from 'react-dropzone';
import { DataTable } from '../components/DataTable';
import { Field, FormError } from '../components/Field';
import { FormActions, FormModal } from '../components/FormModal';
import { Modal } from '../components/Modal';
import { PageToolbar } from '../components/PageToolbar';
import { RowActions } from '../components/RowActions';
import { FAILED, useAdminAction } from '../hooks/useAdminAction';
import { useDeleteAction } from '../components/useDeleteAction';
import { useModalTarget } from '../hooks/useModalTarget';
import {
  type CustomToken,
  type CustomTokenUpload,
  useAddCustomTokenMutation,
  useCustomTokensQuery,
  useDeleteCustomTokenMutation,
  useEditCustomTokenMutation,
} from '../store/adminApi';
import './CustomTokensPage.css';

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

interface AddForm {
  coinId: string;
  symbol: string;
  name: string;
  current_price: string;
  low_24: string;
  high_24: string;
  price_change_percentage_24h: string;
  coinAddress: string;
}

const EMPTY: AddForm = { coinId: '', symbol: '', name: '', current_price: '', low_24: '', high_24: '', price_change_percentage_24h: '', coinAddress: '' };

function ImageDrop({ file, onFile }: { file: File | null; onFile: (file: File | null) => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    accept: { 'image/*': [] },
    multiple: false,
    // One image: when several are dropped, the first image is used; anything else is refused with a reason.
    onDrop: (accepted, rejected) => {
      const firstImage =
        accepted[0] ?? rejected.find((item) => item.file.type.startsWith('image/') && item.errors.every((error) => error.code === 'too-many-files'))?.file;
      if (firstImage) {
        setProblem(null);
        onFile(firstImage);
      } else if (rejected.length > 0) {
        setProblem('Only image files are accepted.');
      }
    },
  });
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  return (
    <div className="admin-field span">
      <span id="custom-token-image-label" style={{ fontWeight: 600, fontSize: '0.9rem' }}>
        Upload Any Proof of Identity
      </span>
      <div {...getRootProps({ className: isDragActive ? 'dropzone active' : 'dropzone', role: 'button', 'aria-labelledby': 'custom-token-image-label' })}>
        <input {...getInputProps({ 'aria-label': 'Upload Any Proof of Identity' })} />
        {isDragActive ? <p>Drop the image here...</p> : <p>Drag &amp; drop some images here, or click to select images</p>}
        {file ? (
          <>
            <p className="muted">{file.name}</p>
            {preview ? <img src={preview} alt="Selected image" /> : null}
          </>
        ) : null}
      </div>
      <FormError message={problem} />
    </div>
  );
}

function AddTokenModal({
  form,
  setForm,
  onClose,
  onDone,
}: {
  form: AddForm;
  setForm: (next: (previous: AddForm) => AddForm) => void;
  onClose: () => void;
  onDone: () => void;
}) {
  const [addCustomToken, { isLoading }] = useAddCustomTokenMutation();
  const [image, setImage] = useState<File | null>(null);
  const { error, setError, run } = useAdminAction();
  const bind = (key: keyof AddForm) => ({
    value: form[key],
    onChange: (event: { target: { value: string } }) => setForm((previous) => ({ ...previous, [key]: event.target.value })),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const required: [keyof AddForm, string][] = [
      ['coinId', 'Coin Id'],
      ['symbol', 'Symbol'],
      ['name', 'Name'],
      ['current_price', 'Current Price'],
      ['coinAddress', 'Coin Address'],
    ];
    const missing = required.filter(([key]) => !form[key].trim()).map(([, label]) => label);
    if (missing.length > 0) return setError(`Required: ${missing.join(', ')}.`);
    const numeric: [keyof AddForm, string][] = [
      ['current_price', 'Current Price'],
      ['low_24', 'Low 24h'],
      ['high_24', 'High 24h'],
      ['price_change_percentage_24h', 'Price Change % 24h'],
    ];
    const notNumbers = numeric.filter(([key]) => form[key].trim() && !NUMBER.test(form[key].trim())).map(([, label]) => label);
    if (notNumbers.length > 0) return setError(`Must be a number: ${notNumbers.join(', ')}.`);
    setError(null);
    const body = new FormData();
    if (image) body.append('image', image);
    body.append('coinId', form.coinId.trim());
    body.append('symbol', form.symbol.trim());
    body.append('name', form.name.trim());
    body.append('current_price', form.current_price.trim());
    if (form.low_24.trim()) body.append('low_24', form.low_24.trim());
    if (form.high_24.trim()) body.append('high_24', form.high_24.trim());
    if (form.price_change_percentage_24h.trim()) body.append('price_change_percentage_24h', form.price_change_percentage_24h.trim());
    body.append('address', form.coinAddress.trim());
    // Multipart: FormData goes through as is (the generated type lists its fields).
    const request = () => addCustomToken({ body: body as unknown as CustomTokenUpload }).unwrap();
    if (await run(request, { success: 'Coin added successfully', ...FAILED })) {
      setForm((previous) => ({ ...previous, coinId: '', coinAddress: '' }));
      onDone();
    }
  };

  return (
    <Modal title="Add Token" onClose={onClose} wide>
      <form className="admin-form two" onSubmit={submit} noValidate>
        <Field label="Coin Id" hint="Its id on the public price-data service.">
          <input {...bind('coinId')} required autoComplete="off" />
        </Field>
        <Field label="Symbol">
          <input {...bind('symbol')} required autoComplete="off" />
        </Field>
        <Field label="Name">
          <input {...bind('name')} required autoComplete="off" />
        </Field>
        <Field label="Current Price">
          <input {...bind('current_price')} inputMode="decimal" required autoComplete="off" />
        </Field>
        <Field label="Low 24h">
          <input {...bind('low_24')} inputMode="decimal" autoComplete="off" />
        </Field>
        <Field label="High 24h">
          <input {...bind('high_24')} inputMode="decimal" autoComplete="off" />
        </Field>
        <Field label="Price Change % 24h">
          <input {...bind('price_change_percentage_24h')} inputMode="decimal" autoComplete="off" />
        </Field>
        <Field label="Coin Address">
          <input {...bind('coinAddress')} required autoComplete="off" />
        </Field>
        <ImageDrop file={image} onFile={setImage} />
        <div className="span">
          <FormError message={error} />
        </div>
        <FormActions className="admin-actions span" onCancel={onClose} busy={isLoading} submitLabel="Add New" />
      </form>
    </Modal>
  );
}

function EditTokenModal({ token, onClose, onDone }: { token: CustomToken; onClose: () => void; onDone: () => void }) {
  const [editCustomToken, { isLoading }] = useEditCustomTokenMutation();
  const [tId, setTId] = useState(token._id);
  const [name, setName] = useState(token.name);
  const [address, setAddress] = useState(token.address ?? '');
  const [price, setPrice] = useState(token.current_price);
  const { error, setError, run } = useAdminAction();
  const submit = async () => {
    if (!tId.trim() || !name.trim() || !address.trim()) return setError('All fields are required.');
    if (price.trim() && !NUMBER.test(price.trim())) return setError('Must be a number: Current Price.');
    const priceChanged = price.trim() !== '' && price.trim() !== token.current_price;
    setError(null);
    const editCustomTokenDto = { token: name.trim(), address: address.trim(), tokenId: tId.trim(), ...(priceChanged ? { current_price: price.trim() } : {}) };
    if (await run(() => editCustomToken({ editCustomTokenDto }).unwrap(), { success: 'Token updated successfully', ...FAILED })) onDone();
  };
  return (
    <FormModal title="Edit Token" onClose={onClose} onSubmit={submit} error={error} busy={isLoading} submitLabel="Edit">
      <Field label="Token Id">
        <input value={tId} onChange={(event) => setTId(event.target.value)} readOnly required />
      </Field>
      <Field label="Token Name">
        <input value={name} onChange={(event) => setName(event.target.value)} required autoComplete="off" />
      </Field>
      <Field label="Address">
        <input value={address} onChange={(event) => setAddress(event.target.value)} required autoComplete="off" />
      </Field>
      <Field label="Current Price (USD)" hint="A new manual price is recorded in the audit log.">
        <input value={price} onChange={(event) => setPrice(event.target.value)} inputMode="decimal" autoComplete="off" />
      </Field>
    </FormModal>
  );
}

export default function CustomTokensPage() {
  const tokens = useCustomTokensQuery(undefined, { refetchOnMountOrArgChange: true });
  const [deleteCustomToken] = useDeleteCustomTokenMutation();
  const adding = useModalTarget<true>(tokens.refetch);
  const [form, setForm] = useState<AddForm>(EMPTY);
  const editing = useModalTarget<CustomToken>(tokens.refetch);
  const { remove, error, dialog } = useDeleteAction(tokens.refetch);

  return (
    <>
      <PageToolbar title="Custom Tokens" actionLabel="Add New" onAction={() => adding.open(true)} />
      <DataTable
        query={tokens}
        loadError="The custom tokens could not be loaded."
        error={error}
        loadingLabel="Loading custom tokens"
        columns={['Name', 'Walled Address', 'Action']}
        rows={tokens.data ?? []}
        empty="No Custom Token"
      >
        {(token) => (
          <tr key={token._id}>
            <td>
              {token.name} <span className="muted">({token.id})</span>
            </td>
            <td className="mono">{token.address ?? 'null'}</td>
            <td>
              <RowActions
                editLabel={`Edit ${token.name}`}
                deleteLabel={`Delete ${token.name}`}
                onEdit={() => editing.open(token)}
                onDelete={() =>
                  remove(() => deleteCustomToken({ _id: token._id, id: token.id }).unwrap(), {
                    success: 'Coin deleted successfully',
                    ...FAILED,
                    reloadOnFailure: true,
                  })
                }
              />
            </td>
          </tr>
        )}
      </DataTable>
      {adding.target ? <AddTokenModal form={form} setForm={setForm} onClose={adding.close} onDone={adding.done} /> : null}
      {editing.target ? <EditTokenModal token={editing.target} onClose={editing.close} onDone={editing.done} /> : null}
      {dialog}
    </>
  );
}
