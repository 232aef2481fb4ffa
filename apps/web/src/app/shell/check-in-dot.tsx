import { useIsSignedToday } from '../../features/points/api/get-sign-status';
import { useTranslation } from '../../shared/i18n/use-translation';
import { withQueryScope } from '../../shared/queries/query-scope';

/** The points icon's red dot: when today's check-in is known and not done; unknown shows none. */
function CheckInDot() {
  const { t } = useTranslation();
  const isSignedToday = useIsSignedToday(true);
  return isSignedToday === false ? (
    <span className="red-dot" role="status" aria-label={t('nav.checkInDue')} />
  ) : null;
}

export default withQueryScope(CheckInDot);
