import type { VerificationLevelDto } from '../../../api/generated/verificationApi.generated';
import { limitText } from '../lib/limits';

/** What each level asks for and allows, one card per level (no table: it reads on a phone as on a desk). */
export function LevelCards({ levels, current }: { levels: VerificationLevelDto[]; current?: number }) {
  return (
    <ul className="verification-levels">
      {levels.map((level) => (
        <li key={level.level} className="card" aria-current={level.level === current ? 'true' : undefined}>
          <h3>
            Level {level.level}
            {level.level === current ? <span className="badge">Your level</span> : null}
          </h3>
          <p className="muted">{level.requires}</p>
          <dl className="details">
            <dt>Deposits</dt>
            <dd>
              {limitText(level.limits.depositDay)} a day · {limitText(level.limits.depositMonth)} per 30 days
            </dd>
            <dt>Withdrawals</dt>
            <dd>
              {limitText(level.limits.withdrawalDay)} a day · {limitText(level.limits.withdrawalMonth)} per 30 days · at most{' '}
              {limitText(level.limits.withdrawalSingle)} at once
            </dd>
            <dt>Swaps</dt>
            <dd>
              {limitText(level.limits.swapDay)} a day · {limitText(level.limits.swapMonth)} per 30 days
            </dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}
