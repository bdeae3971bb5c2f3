import { Link, useNavigate } from 'react-router-dom';
import { PasswordInput } from '../../../components/PasswordInput';
import { SecondFactorField } from '../../../components/SecondFactorField';
import { SiteLayout } from '../../../components/SiteLayout';
import { useSignInForm } from '../hooks/useSignInForm';
import { useLoginUserMutation } from '../../../api/generated/authApi.generated';

export default function LoginPage() {
  const [loginUser] = useLoginUserMutation();
  const navigate = useNavigate();
  const { email, setEmail, password, setPassword, complete, busy, submit, secondFactor } = useSignInForm(
    (loginDto) => loginUser({ loginDto }).unwrap(),
    '/wallet',
  );

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
        {secondFactor.needed && <SecondFactorField id="login-code" value={secondFactor.code} onChange={secondFactor.setCode} autoFocus />}
        <div className="row-end">
          <button type="button" className="link-button" onClick={() => navigate('/forgot-password')}>
            Forgot Password
          </button>
        </div>
        <button type="submit" className="button block" disabled={!complete || busy}>
          {busy ? 'Processing...' : 'Sign in'}
        </button>
        <p className="muted center">
          New to Coinpurse? <Link to="/signup">Sign up</Link>
        </p>
      </form>
    </SiteLayout>
  );
}
