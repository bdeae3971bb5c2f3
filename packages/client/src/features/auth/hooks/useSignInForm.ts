import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router-dom';
import { errorMessage, isTwoFactorRequired } from '../../../api/baseApi';
import type { SessionDto } from '../../../api/schema';
import { useAppDispatch } from '../../../core/hooks';
import { signedIn } from '../../../core/session/sessionSlice';
import { useSecondFactor } from '../../../components/SecondFactorField';

type SignIn = (credentials: { email: string; password: string; code?: string }) => Promise<SessionDto>;

/** The customer and admin sign-in forms: fields, the disabled rule, the call, the session, the toast and the redirect. */
export function useSignInForm(signIn: SignIn, destination: string) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  // With two-factor sign-in on, the server answers the password with a request for the code: a second step.
  const secondFactor = useSecondFactor();
  const complete = Boolean(email.trim() && password) && (!secondFactor.needed || Boolean(secondFactor.value));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!complete || busy) return;
    setBusy(true);
    try {
      const session = await signIn({ email: email.trim(), password, ...(secondFactor.value ? { code: secondFactor.value } : {}) });
      dispatch(signedIn(session));
      toast.success('You have successfully signed in');
      navigate(destination, { replace: true });
    } catch (error) {
      if (isTwoFactorRequired(error)) {
        // First time: the code field appears (its hint says what to do); afterwards the code was wrong or used.
        if (secondFactor.needed) toast.error(errorMessage(error, 'Sign in failed. Please try again.'));
        secondFactor.ask();
        secondFactor.reset();
        return;
      }
      toast.error(errorMessage(error, 'Sign in failed. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return { email, setEmail, password, setPassword, complete, busy, submit, secondFactor };
}
