import { Link } from 'react-router-dom';
import { useGetVerificationQuery } from '../../../api/generated/verificationApi.generated';
import { formatUsd } from '../../../lib/format';

function left(value: string | null): string {
  if (value === null) return 'no limit';
  return Number(value) === 0 ? 'none' : formatUsd(value);
}

/** What is left today of the customer's level limits (only while the operator enforces them), and where to raise them. */
export function LimitsLeft() {
  const { data } = useGetVerificationQuery(undefined, { refetchOnMountOrArgChange: true });
  if (!data?.limitsEnabled) return null;
  return (
    <p className="center muted" data-testid="limits-left">
      Left today: sends {left(data.left.withdrawalToday)} · swaps {left(data.left.swapToday)} · deposits {left(data.left.depositToday)}.{' '}
      <Link to="/profile/verification">Level {data.level}: raise your limits</Link>
    </p>
  );
}
