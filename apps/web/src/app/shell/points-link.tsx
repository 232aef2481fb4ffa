import { PATHS } from '@elex/contract';
import { Coins } from 'lucide-react';
import { NavLink } from 'react-router';
import { useIsSignedToday } from '../../features/points/api/get-sign-status';
import { useTranslation } from '../../shared/i18n/use-translation';

/** The points icon: a red dot when today's check-in is known and not done; unknown shows none. */
export function PointsLink() {
  const { t } = useTranslation();
  const isSignedToday = useIsSignedToday(true);
  const showDot = isSignedToday === false;
  return (
    <NavLink to={PATHS.myPagePoint} className="icon-button points-link" aria-label={t('nav.points')}>
      <Coins size={20} aria-hidden="true" />
      {showDot ? <span className="red-dot" role="status" aria-label={t('nav.checkInDue')} /> : null}
    </NavLink>
  );
}
