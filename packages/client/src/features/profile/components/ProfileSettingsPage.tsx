import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import { errorMessage, isTwoFactorRequired } from '../../../api/baseApi';
import { useChangePasswordMutation, useMeQuery, useTwoFactorStatusQuery, useUpdateProfileMutation } from '../../../api/endpoints';
import { useAppDispatch, useAppSelector } from '../../../core/hooks';
import { signedIn } from '../../../core/session/sessionSlice';
import { CountrySelect } from '../../../components/CountrySelect';
import { PasswordInput } from '../../../components/PasswordInput';
import { SecondFactorField, useSecondFactor } from '../../../components/SecondFactorField';
import { SiteLayout } from '../../../components/SiteLayout';
import { Spinner } from '../../../components/Spinner';
import { countryCodeOf } from '../../../lib/countryNames';
import { useServerField } from '../../../lib/useServerField';

/** `security`: the Security section (two-factor sign-in, sessions), composed in by the router. */
export default function ProfileSettingsPage({ security }: { security?: ReactNode }) {
  const { data: me, isLoading } = useMeQuery();
  return (
    <SiteLayout>
      <h1>Profile Settings</h1>
      {isLoading || !me ? (
        <Spinner label="Loading your profile" />
      ) : (
        <div className="profile-grid">
          <DetailsForm name={me.name} country={me.country} />
          <EmailForm email={me.email} />
          <PasswordForm />
        </div>
      )}
      {security}
      <p style={{ marginTop: '1.25rem' }}>
        <Link to="/user-profile">Back to Profile Overview</Link>
      </p>
    </SiteLayout>
  );
}

/** `country` as the API answers it: an English name, or a value kept from before countries were checked. */
function DetailsForm(props: { name: string; country: string }) {
  // The select holds codes; a kept value that is no country stays as it is (and is not sent back unless changed).
  const storedCountry = countryCodeOf(props.country) ?? props.country;
  const [name, setName] = useServerField(props.name);
  const [country, setCountry] = useServerField(storedCountry);
  const [updateProfile, { isLoading }] = useUpdateProfileMutation();
  const session = useAppSelector((state) => state.session.user);
  const dispatch = useAppDispatch();
  const countryChanged = country !== storedCountry;
  const changed = name.trim() !== props.name || countryChanged;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim() || !country || !changed || isLoading) return;
    try {
      const profile = await updateProfile({ updateProfileDto: { name: name.trim(), ...(countryChanged ? { country } : {}) } }).unwrap();
      // Keep the stored session's copy of the name and country current.
      if (session) dispatch(signedIn({ ...session, name: profile.name, country: profile.country }));
      toast.success('Profile updated successfully');
    } catch (error) {
      toast.error(errorMessage(error, 'Your profile could not be updated.'));
    }
  }

  return (
    <form className="card" onSubmit={submit} noValidate>
      <h2>Your details</h2>
      <div className="field">
        <label htmlFor="profile-name">Name</label>
        <input id="profile-name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="profile-country">Country of Residence</label>
        <CountrySelect id="profile-country" value={country} onChange={setCountry} />
      </div>
      <button type="submit" className="button" disabled={!name.trim() || !country || !changed || isLoading}>
        {isLoading ? 'Processing...' : 'Save changes'}
      </button>
    </form>
  );
}

/** A new sign-in email: a step-up action (the two-factor code when it is on); the old address is told by mail. */
function EmailForm(props: { email: string }) {
  const [email, setEmail] = useState('');
  const [updateProfile, { isLoading }] = useUpdateProfileMutation();
  const session = useAppSelector((state) => state.session.user);
  const dispatch = useAppDispatch();
  const { data: twoFactor } = useTwoFactorStatusQuery();
  const secondFactor = useSecondFactor(Boolean(twoFactor?.enabled));
  const changed = Boolean(email.trim()) && email.trim().toLowerCase() !== props.email.toLowerCase();
  const ready = changed && (!secondFactor.needed || Boolean(secondFactor.value));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready || isLoading) return;
    try {
      const profile = await updateProfile({ updateProfileDto: { email: email.trim(), code: secondFactor.value } }).unwrap();
      if (session) dispatch(signedIn({ ...session, email: profile.email }));
      setEmail('');
      secondFactor.reset();
      toast.success('Email updated. We told your previous address too.');
    } catch (error) {
      if (isTwoFactorRequired(error)) {
        secondFactor.ask();
        secondFactor.reset();
      }
      toast.error(errorMessage(error, 'Your email could not be changed.'));
    }
  }

  return (
    <form className="card" onSubmit={submit} noValidate>
      <h2>Sign-in email</h2>
      <p className="muted">
        Now: <strong className="break-anywhere">{props.email}</strong>
      </p>
      <div className="field">
        <label htmlFor="profile-email">New email</label>
        <input id="profile-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      {secondFactor.needed && <SecondFactorField id="email-code" value={secondFactor.code} onChange={secondFactor.setCode} />}
      <button type="submit" className="button" disabled={!ready || isLoading}>
        {isLoading ? 'Processing...' : 'Change email'}
      </button>
    </form>
  );
}

function PasswordForm() {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [changePassword, { isLoading }] = useChangePasswordMutation();
  const dispatch = useAppDispatch();
  const { data: twoFactor } = useTwoFactorStatusQuery();
  const secondFactor = useSecondFactor(Boolean(twoFactor?.enabled));
  const ready = Boolean(currentPassword && newPassword) && (!secondFactor.needed || Boolean(secondFactor.value));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready || isLoading) return;
    try {
      const session = await changePassword({ changePasswordDto: { currentPassword, newPassword, code: secondFactor.value } }).unwrap();
      dispatch(signedIn(session));
      setCurrent('');
      setNew('');
      secondFactor.reset();
      toast.success('Password Changed Successfully');
    } catch (error) {
      if (isTwoFactorRequired(error)) {
        secondFactor.ask();
        secondFactor.reset();
      }
      toast.error(errorMessage(error, 'Your password could not be changed.'));
    }
  }

  return (
    <form className="card" onSubmit={submit} noValidate>
      <h2>Change password</h2>
      <p className="muted">Your other sessions will be signed out.</p>
      <PasswordInput
        id="current-password"
        label="Current password"
        autoComplete="current-password"
        value={currentPassword}
        onChange={(e) => setCurrent(e.target.value)}
      />
      <PasswordInput
        id="new-password"
        label="New password"
        autoComplete="new-password"
        placeholder="Minimum of 8 Characters"
        value={newPassword}
        onChange={(e) => setNew(e.target.value)}
      />
      {secondFactor.needed && <SecondFactorField id="password-code" value={secondFactor.code} onChange={secondFactor.setCode} />}
      <button type="submit" className="button" disabled={!ready || isLoading}>
        {isLoading ? 'Processing...' : 'Change password'}
      </button>
    </form>
  );
}
