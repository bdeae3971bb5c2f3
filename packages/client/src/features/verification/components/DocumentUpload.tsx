import { useState } from 'react';
import toast from 'react-hot-toast';
import { errorMessage } from '../../../api/baseApi';
import { type UploadDocumentDto, useUploadDocumentMutation } from '../../../api/generated/verificationApi.generated';
import { formatDateTime } from '../../../lib/format';
import { DOCUMENT_LABELS } from '../lib/limits';

type Kind = UploadDocumentDto['kind'];

/** One document: chosen, uploaded at once (encrypted on the server), shown as uploaded until the submission takes it. */
export function DocumentUpload({ kind, uploadedAt, hint }: { kind: Kind; uploadedAt?: string; hint?: string }) {
  const [upload, { isLoading }] = useUploadDocumentMutation();
  const [key, setKey] = useState(0);
  const id = `document-${kind}`;

  async function send(file: File | undefined) {
    if (!file) return;
    const form = new FormData();
    form.append('kind', kind);
    form.append('image', file);
    try {
      // Multipart: fetch sends FormData as is (with its boundary).
      await upload({ uploadDocumentDto: form as unknown as UploadDocumentDto }).unwrap();
      toast.success(`${DOCUMENT_LABELS[kind]} uploaded`);
    } catch (error) {
      toast.error(errorMessage(error, 'The document could not be uploaded. Please try again.'));
    } finally {
      setKey((k) => k + 1);
    }
  }

  return (
    <div className="field">
      <label htmlFor={id}>{DOCUMENT_LABELS[kind]}</label>
      <input
        key={key}
        id={id}
        type="file"
        accept="image/png,image/jpeg,image/webp,image/gif"
        disabled={isLoading}
        onChange={(e) => void send(e.target.files?.[0])}
      />
      <p className="muted field-hint" aria-live="polite">
        {isLoading
          ? 'Uploading…'
          : uploadedAt
            ? `Uploaded ${formatDateTime(uploadedAt)}. Choose a file again to replace it.`
            : (hint ?? 'PNG, JPEG, WebP or GIF, at most 5 MB.')}
      </p>
    </div>
  );
}
