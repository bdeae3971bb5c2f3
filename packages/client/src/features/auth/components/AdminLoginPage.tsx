import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import { errorMessage } from '../../../app/api/baseApi';
import { useAppDispatch } from '../../../app/hooks';
import { signedIn } from '../../../app/session/sessionSlice';
import { Logo } from '../../../components/Logo';
import { PasswordInput } from '../../../components/PasswordInput';
import { useLoginAdminMutation } from '../store/authApi.generated';

export default function AdminLoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [loginAdmin, { isLoading }] = useLoginAdminMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const complete = Boolean(email.trim() && password);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!complete || isLoading) return;
    try {
      const session = await loginAdmin({ loginDto: { email: email.trim(), password } }).unwrap();
      dispatch(signedIn(session));
      toast.success('You have successfully signed in');
      navigate('/admin', { replace: true });
    } catch (error) {
      toast.error(errorMessage(error, 'Sign in failed. Please try again.'));
    }
  }

  return (
    <main id="main" className="page auth-page admin-login">
      <div className="center">
        <Logo />
      </div>
      <form className="card auth-card" onSubmit={submit} noValidate>
        <h1>Login as Admin</h1>
        <div className="field">
          <label htmlFor="admin-email">Email</label>
          <input id="admin-email" name="email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <PasswordInput
          id="admin-password"
          label="Password"
          name="password"
          autoComplete="current-password"
          hint="Minimum of 8 characters"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <button type="submit" className="button block" disabled={!complete || isLoading}>
          {isLoading ? 'Processing...' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
