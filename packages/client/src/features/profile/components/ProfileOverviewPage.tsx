import { Link } from 'react-router-dom';
import { SiteLayout } from '../../../components/SiteLayout';
import { Spinner } from '../../../components/Spinner';
import { countryDisplayName } from '../../../lib/countryNames';
import { formatDate } from '../../../lib/text';
import { useMeQuery } from '../../../api/endpoints';
import './ProfileOverviewPage.css';

export default function ProfileOverviewPage() {
  const { data: me, isLoading } = useMeQuery();
  return (
    <SiteLayout>
      <h1>Profile Overview</h1>
      {isLoading || !me ? (
        <Spinner label="Loading your profile" />
      ) : (
        <div className="card">
          <dl className="details">
            <dt>Name</dt>
            <dd>{me.name}</dd>
            <dt>Email</dt>
            <dd className="break-anywhere">{me.email}</dd>
            <dt>Country</dt>
            <dd>{countryDisplayName(me.country)}</dd>
            <dt>Member since</dt>
            <dd>{formatDate(me.createdAt)}</dd>
          </dl>
          <p className="row" style={{ marginTop: '1.25rem', flexWrap: 'wrap' }}>
            <Link className="button" to="/profile-setting">
              Profile Settings
            </Link>
            <Link className="button secondary" to="/profile/verification">
              Verification
            </Link>
            <Link className="button secondary" to="/profile/api-keys">
              API keys
            </Link>
            <Link className="button secondary" to="/profile/webhooks">
              Webhooks
            </Link>
            <Link className="button secondary" to="/wallet">
              Back to wallet
            </Link>
          </p>
        </div>
      )}
    </SiteLayout>
  );
}
