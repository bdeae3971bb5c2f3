import { useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { errorMessage } from '../../../api/baseApi';
import { useCreateTicketMutation, type CreateTicketDto } from '../../../api/generated/ticketsApi.generated';
import { useAppSelector } from '../../../core/hooks';
import { SiteLayout } from '../../../components/SiteLayout';
import { isEmail } from '../../../lib/validation';

export default function TicketPage() {
  const storedEmail = useAppSelector((state) => state.session.user?.email ?? '');
  const [subject, setSubject] = useState('');
  const [email, setEmail] = useState(storedEmail);
  const [message, setMessage] = useState('');
  const [image, setImage] = useState<File | null>(null);
  const [emailTouched, setEmailTouched] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const [createTicket, { isLoading }] = useCreateTicketMutation();
  const emailValid = isEmail(email);
  const complete = Boolean(subject.trim() && emailValid && message.trim());

  async function submit(event: FormEvent) {
    event.preventDefault();
    setEmailTouched(true);
    if (!complete || isLoading) return;
    const form = new FormData();
    form.append('subject', subject.trim());
    form.append('email', email.trim());
    form.append('note', message.trim());
    if (image) form.append('image', image);
    try {
      // Multipart: fetch sends FormData as is (with its boundary).
      await createTicket({ createTicketDto: form as unknown as CreateTicketDto }).unwrap();
      toast.success('Your support ticket has been submitted successfully');
      setSubject('');
      setMessage('');
      setImage(null);
      setEmailTouched(false);
      if (fileInput.current) fileInput.current.value = '';
    } catch (error) {
      toast.error(errorMessage(error, 'Your ticket could not be sent. Please try again.'));
    }
  }

  return (
    <SiteLayout className="page auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate>
        <h1>Create New Ticket</h1>
        <p className="muted">24/7 Chat Support: tell us what happened and we will answer by email.</p>
        <div className="field">
          <label htmlFor="ticket-subject">Subject</label>
          <input id="ticket-subject" value={subject} onChange={(e) => setSubject(e.target.value)} maxLength={200} />
        </div>
        <div className="field">
          <label htmlFor="ticket-email">Email</label>
          <input
            id="ticket-email"
            type="email"
            autoComplete="email"
            value={email}
            aria-invalid={emailTouched && !emailValid}
            aria-describedby="ticket-email-error"
            onChange={(e) => setEmail(e.target.value)}
            onBlur={() => setEmailTouched(Boolean(email))}
          />
          <small id="ticket-email-error" className="error-text" role="alert">
            {emailTouched && !emailValid ? 'Enter a valid email address.' : ''}
          </small>
        </div>
        <div className="field">
          <label htmlFor="ticket-message">Message</label>
          <textarea id="ticket-message" value={message} onChange={(e) => setMessage(e.target.value)} maxLength={5000} />
        </div>
        <div className="field">
          <label htmlFor="ticket-image">Image (optional)</label>
          <input
            ref={fileInput}
            id="ticket-image"
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            aria-describedby="ticket-image-hint"
            onChange={(e) => setImage(e.target.files?.[0] ?? null)}
          />
          <small id="ticket-image-hint" className="hint">
            PNG, JPEG, WebP or GIF, up to 5 MB.
          </small>
        </div>
        <button type="submit" className="button block" disabled={!complete || isLoading}>
          {isLoading ? 'Processing...' : 'Submit'}
        </button>
      </form>
    </SiteLayout>
  );
}
