import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import { errorMessage } from '../../../api/baseApi';
import { useAppDispatch } from '../../../core/hooks';
import { signedIn } from '../../../core/session/sessionSlice';
import { CountrySelect } from '../../../components/CountrySelect';
import { PasswordInput } from '../../../components/PasswordInput';
import { SiteLayout } from '../../../components/SiteLayout';
import { useCreateUserMutation } from '../../../api/generated/authApi.generated';

export default function SignupPage() {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [country, setCountry] = useState('');
  const [createUser, { isLoading }] = useCreateUserMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const complete = Boolean(name.trim() && email.trim() && password && country);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!complete || isLoading) return;
    try {
      const session = await createUser({ createUserDto: { name: name.trim(), email: email.trim(), password, country } }).unwrap();
      dispatch(signedIn(session));
      toast.success('You have successfully signed up');
      navigate('/wallet', { replace: true });
    } catch (error) {
      toast.error(errorMessage(error, 'Sign up failed. Please try again.'));
    }
  }

  return (
    <SiteLayout className="page auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate>
        <h1>Create your account</h1>
        <div className="field">
          <label htmlFor="signup-name">Name</label>
          <input id="signup-name" name="name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="signup-email">Email</label>
          <input id="signup-email" name="email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <PasswordInput
          id="signup-password"
          label="Password"
          name="password"
          autoComplete="new-password"
          placeholder="Minimum of 8 Characters"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <div className="field">
          <label htmlFor="signup-country">Country of Residence</label>
          <CountrySelect id="signup-country" name="country" value={country} onChange={setCountry} />
        </div>
        <button type="submit" className="button block" disabled={!complete || isLoading}>
          {isLoading ? 'Processing...' : 'Sign Up'}
        </button>
        <p className="muted center">
          Already have an account? <Link to="/login">Log in</Link>
        </p>
      </form>
    </SiteLayout>
  );
}
