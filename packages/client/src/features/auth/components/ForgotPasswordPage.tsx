import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import { errorMessage } from '../../../api/baseApi';
import { SiteLayout } from '../../../components/SiteLayout';
import { isEmail } from '../../../lib/validation';
import { useForgotPasswordMutation } from '../../../api/generated/authApi.generated';

export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [forgotPassword, { isLoading }] = useForgotPasswordMutation();
  const valid = isEmail(email);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!valid || isLoading) return;
    try {
      await forgotPassword({ forgotPasswordDto: { email: email.trim() } }).unwrap();
      toast.success('Check your email for the password reset link');
      setEmail('');
      setTouched(false);
    } catch (error) {
      toast.error(errorMessage(error, 'An Error Occured'));
    }
  }

  return (
    <SiteLayout className="page auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate>
        <h1>Reset your password</h1>
        <p className="muted">Enter the email of your account and we will send you a link to choose a new password.</p>
        <div className="field">
          <label htmlFor="forgot-email">Email</label>
          <input
            id="forgot-email"
            type="email"
            autoComplete="email"
            value={email}
            aria-invalid={touched && !valid}
            aria-describedby="forgot-email-error"
            onChange={(e) => setEmail(e.target.value)}
            onBlur={() => setTouched(Boolean(email))}
          />
          <small id="forgot-email-error" className="error-text" role="alert">
            {touched && !valid ? 'Enter a valid email address.' : ''}
          </small>
        </div>
        <button type="submit" className="button block" disabled={!email.trim() || isLoading}>
          {isLoading ? 'Processing...' : 'Submit'}
        </button>
        <p className="muted center">
          Remembered it? <Link to="/login">Log in</Link>
        </p>
      </form>
    </SiteLayout>
  );
}
