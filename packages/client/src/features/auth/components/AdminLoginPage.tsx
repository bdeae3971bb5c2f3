import { Logo } from '../../../components/Logo';
import { PasswordInput } from '../../../components/PasswordInput';
import { SecondFactorField } from '../../../components/SecondFactorField';
import { useSignInForm } from '../hooks/useSignInForm';
import { useLoginAdminMutation } from '../../../api/generated/authApi.generated';

export default function AdminLoginPage() {
  const [loginAdmin] = useLoginAdminMutation();
  const { email, setEmail, password, setPassword, complete, busy, submit, secondFactor } = useSignInForm(
    (loginDto) => loginAdmin({ loginDto }).unwrap(),
    '/admin',
  );

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
        {secondFactor.needed && <SecondFactorField id="admin-code" value={secondFactor.code} onChange={secondFactor.setCode} autoFocus />}
        <button type="submit" className="button block" disabled={!complete || busy}>
          {busy ? 'Processing...' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
