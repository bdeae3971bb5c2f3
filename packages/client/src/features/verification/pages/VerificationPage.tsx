import { Link } from 'react-router-dom';
import { useGetVerificationQuery } from '../../../api/generated/verificationApi.generated';
import { SiteLayout } from '../../../components/SiteLayout';
import { Spinner } from '../../../components/Spinner';
import { formatDateTime } from '../../../lib/format';
import { AddressForm, IdentityForm } from '../components/IdentityForm';
import { LevelCards } from '../components/LevelCards';
import { limitText, STATUS_LABELS } from '../lib/limits';
import '../verification.css';

/** Profile → Verification: the level, what each level allows, what is missing, the submission's state, the forms. */
export default function VerificationPage() {
  const { data, isLoading } = useGetVerificationQuery();
  const submission = data?.submission;
  const inReview = submission?.status === 'in_review';
  return (
    <SiteLayout>
      <h1>Verification</h1>
      {isLoading || !data ? (
        <Spinner label="Loading your verification" />
      ) : (
        <>
          <section className="card" aria-labelledby="verification-state">
            <h2 id="verification-state">Your level: {data.level}</h2>
            {submission ? (
              <p role="status">
                Your level-{submission.level} request of {formatDateTime(submission.createdAt)}: <strong>{STATUS_LABELS[submission.status]}</strong>
                {submission.status === 'in_review' ? '. We will tell you by notification and email when it is decided.' : null}
                {submission.status === 'rejected' ? (
                  <>
                    . Reason: <span className="break-anywhere">{submission.reason}</span>. You can send it again below.
                  </>
                ) : null}
              </p>
            ) : (
              <p>You have not asked for a higher level yet.</p>
            )}
            {data.missing.length ? (
              <>
                <h3>Missing for level {data.level + 1}</h3>
                <ul>
                  {data.missing.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              </>
            ) : null}
            {data.limitsEnabled ? (
              <>
                <h3>Left today</h3>
                <dl className="details">
                  <dt>Deposits</dt>
                  <dd>{limitText(data.left.depositToday)}</dd>
                  <dt>Withdrawals</dt>
                  <dd>{limitText(data.left.withdrawalToday)}</dd>
                  <dt>Swaps</dt>
                  <dd>{limitText(data.left.swapToday)}</dd>
                </dl>
              </>
            ) : null}
          </section>
          {!inReview && data.level === 0 ? <IdentityForm verification={data} /> : null}
          {!inReview && data.level === 1 ? <AddressForm verification={data} /> : null}
          <h2>What each level allows</h2>
          {data.limitsEnabled ? null : <p className="muted">Limits are not enforced yet on this service; these are the limits that will apply.</p>}
          <LevelCards levels={data.levels} current={data.level} />
          <p>
            <Link to="/user-profile">Back to Profile Overview</Link>
          </p>
        </>
      )}
    </SiteLayout>
  );
}
