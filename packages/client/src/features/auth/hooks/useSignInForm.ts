import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router-dom';
import { errorMessage } from '../../../app/api/baseApi';
import type { SessionDto } from '../../../app/api/schema';
import { useAppDispatch } from '../../../app/hooks';
import { signedIn } from '../../../app/session/sessionSlice';

type SignIn = (credentials: { email: string; password: string }) => Promise<SessionDto>;

/** The customer and admin sign-in forms: fields, the disabled rule, the call, the session, the toast and the redirect. */
export function useSignInForm(signIn: SignIn, destination: string) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const complete = Boolean(email.trim() && password);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!complete || busy) return;
    setBusy(true);
    try {
      const session = await signIn({ email: email.trim(), password });
      dispatch(signedIn(session));
      toast.success('You have successfully signed in');
      navigate(destination, { replace: true });
    } catch (error) {
      toast.error(errorMessage(error, 'Sign in failed. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return { email, setEmail, password, setPassword, complete, busy, submit };
}
