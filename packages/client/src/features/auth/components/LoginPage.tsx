import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import { errorMessage } from '../../../app/api/baseApi';
import { useAppDispatch } from '../../../app/hooks';
import { signedIn } from '../../../app/session/sessionSlice';
import { PasswordInput } from '../../../components/PasswordInput';
import { SiteLayout } from '../../../components/SiteLayout';
import { useLoginUserMutation } from '../store/authApi.generated';

export default function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [loginUser, { isLoading }] = useLoginUserMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const complete = Boolean(email.trim() && password);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!complete || isLoading) return;
    try {
      const session = await loginUser({ loginDto: { email: email.trim(), password } }).unwrap();
      dispatch(signedIn(session));
      toast.success('You have successfully signed in');
      navigate('/wallet', { replace: true });
    } catch (error) {
      toast.error(errorMessage(error, 'Sign in failed. Please try again.'));
    }
  }

  return (
    <SiteLayout className="page auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate>
        <h1>Welcome back</h1>
        <div className="field">
          <label htmlFor="login-email">Email</label>
          <input id="login-email" name="email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <PasswordInput
          id="login-password"
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <div className="row-end">
          <button type="button" className="link-button" onClick={() => navigate('/forgot-password')}>
            Forgot Password
          </button>
        </div>
        <button type="submit" className="button block" disabled={!complete || isLoading}>
          {isLoading ? 'Processing...' : 'Sign in'}
        </button>
        <p className="muted center">
          New to Coinpurse? <Link to="/signup">Sign up</Link>
        </p>
      </form>
    </SiteLayout>
  );
}
