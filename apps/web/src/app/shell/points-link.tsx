import { PATHS } from '@elex/contract';
import { Coins } from 'lucide-react';
import { NavLink } from 'react-router';
import { deferredComponent, useDeferredComponent } from '../../shared/deferred-component';
import { useTranslation } from '../../shared/i18n/use-translation';

// The dot asks the server, through TanStack Query: its code loads after the first paint (issue 14),
// and until the answer is in there is no dot either way.
const checkInDot = deferredComponent(() => import('./check-in-dot'));

/** The points icon, with a red dot when today's check-in is due (spec section 2). */
export function PointsLink() {
  const { t } = useTranslation();
  const CheckInDot = useDeferredComponent(checkInDot);
  return (
    <NavLink to={PATHS.myPagePoint} className="icon-button points-link" aria-label={t('nav.points')}>
      <Coins size={20} aria-hidden="true" />
      {CheckInDot ? <CheckInDot /> : null}
    </NavLink>
  );
}
