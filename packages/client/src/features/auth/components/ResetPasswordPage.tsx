import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import toast from 'react-hot-toast';
import { errorMessage } from '../../../api/baseApi';
import { PasswordInput } from '../../../components/PasswordInput';
import { SiteLayout } from '../../../components/SiteLayout';
import { useResetPasswordWithTokenMutation } from '../store/resetPassword';

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [resetPassword, { isLoading }] = useResetPasswordWithTokenMutation();
  const navigate = useNavigate();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!password || isLoading) return;
    try {
      await resetPassword({ token, resetPasswordDto: { password } }).unwrap();
      toast.success('Password Changed Successfully');
      navigate('/login', { replace: true });
    } catch (error) {
      toast.error(errorMessage(error, 'The reset link is invalid or has expired.'));
    }
  }

  return (
    <SiteLayout className="page auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate>
        <h1>Change Password</h1>
        {!token && (
          <p className="error-text" role="alert">
            This link has no reset token. <Link to="/forgot-password">Request a new link</Link>.
          </p>
        )}
        <PasswordInput
          id="reset-password"
          label="New Password"
          autoComplete="new-password"
          placeholder="Minimum of 8 Characters"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <button type="submit" className="button block" disabled={!password || !token || isLoading}>
          {isLoading ? 'Processing...' : 'Submit'}
        </button>
      </form>
    </SiteLayout>
  );
}
