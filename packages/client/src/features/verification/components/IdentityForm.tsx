import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { errorMessage } from '../../../api/baseApi';
import { type SubmitVerificationDto, type VerificationDto, useSubmitVerificationMutation } from '../../../api/generated/verificationApi.generated';
import { CountrySelect } from '../../../components/CountrySelect';
import { DocumentUpload } from './DocumentUpload';

type DocumentType = NonNullable<SubmitVerificationDto['documentType']>;

/** Level 1: personal details and the identity documents, sent together for review. */
export function IdentityForm({ verification }: { verification: VerificationDto }) {
  const [legalName, setLegalName] = useState('');
  const [dateOfBirth, setDateOfBirth] = useState('');
  const [address, setAddress] = useState('');
  const [country, setCountry] = useState('');
  const [documentType, setDocumentType] = useState<DocumentType>('passport');
  const [submit, { isLoading }] = useSubmitVerificationMutation();
  const uploaded = (kind: string) => verification.documents.find((d) => d.kind === kind)?.uploadedAt;

  async function send(event: FormEvent) {
    event.preventDefault();
    try {
      await submit({ submitVerificationDto: { level: 1, legalName, dateOfBirth, address, country, documentType } }).unwrap();
      toast.success('Your verification was submitted. We will tell you when it is reviewed.');
    } catch (error) {
      toast.error(errorMessage(error, 'Your verification could not be sent. Please try again.'));
    }
  }

  return (
    <form className="card verification-form" onSubmit={send} noValidate>
      <h2>Verify your identity (level 1)</h2>
      <div className="field">
        <label htmlFor="legal-name">Legal name</label>
        <input id="legal-name" autoComplete="name" value={legalName} onChange={(e) => setLegalName(e.target.value)} maxLength={200} />
      </div>
      <div className="field">
        <label htmlFor="date-of-birth">Date of birth</label>
        <input id="date-of-birth" type="date" autoComplete="bday" value={dateOfBirth} onChange={(e) => setDateOfBirth(e.target.value)} />
        <p className="muted field-hint">You must be 18 or older.</p>
      </div>
      <div className="field">
        <label htmlFor="residential-address">Residential address</label>
        <textarea
          id="residential-address"
          autoComplete="street-address"
          rows={3}
          value={address}
          onChange={(e) => setAddress(e.target.value)}
          maxLength={500}
        />
      </div>
      <div className="field">
        <label htmlFor="residence-country">Country of residence</label>
        <CountrySelect id="residence-country" value={country} onChange={setCountry} />
      </div>
      <div className="field">
        <label htmlFor="document-type">Identity document</label>
        <select id="document-type" value={documentType} onChange={(e) => setDocumentType(e.target.value as DocumentType)}>
          <option value="passport">Passport</option>
          <option value="id_card">Identity card</option>
          <option value="driving_licence">Driving licence</option>
        </select>
      </div>
      <DocumentUpload kind="id_front" uploadedAt={uploaded('id_front')} hint="The page with your photo, every corner visible." />
      {documentType === 'passport' ? null : <DocumentUpload kind="id_back" uploadedAt={uploaded('id_back')} />}
      <DocumentUpload kind="selfie" uploadedAt={uploaded('selfie')} hint="Your face, clearly lit, holding the document." />
      <button type="submit" className="button" disabled={isLoading}>
        {isLoading ? 'Sending…' : 'Send for review'}
      </button>
    </form>
  );
}

/** Level 2: a proof of address, sent for review. */
export function AddressForm({ verification }: { verification: VerificationDto }) {
  const [submit, { isLoading }] = useSubmitVerificationMutation();
  const uploadedAt = verification.documents.find((d) => d.kind === 'proof_of_address')?.uploadedAt;

  async function send(event: FormEvent) {
    event.preventDefault();
    try {
      await submit({ submitVerificationDto: { level: 2 } }).unwrap();
      toast.success('Your proof of address was submitted. We will tell you when it is reviewed.');
    } catch (error) {
      toast.error(errorMessage(error, 'Your proof of address could not be sent. Please try again.'));
    }
  }

  return (
    <form className="card verification-form" onSubmit={send} noValidate>
      <h2>Verify your address (level 2)</h2>
      <DocumentUpload
        kind="proof_of_address"
        uploadedAt={uploadedAt}
        hint="A utility bill or bank statement from the last 3 months, with your name and address."
      />
      <button type="submit" className="button" disabled={isLoading}>
        {isLoading ? 'Sending…' : 'Send for review'}
      </button>
    </form>
  );
}
