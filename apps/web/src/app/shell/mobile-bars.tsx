import { Calculator, CircleUser, House, Info, LogIn, type LucideIcon, Store, UserPlus } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { useIsLoggedIn } from '../../shared/hooks/use-is-logged-in';
import { useTranslation } from '../../shared/i18n/use-translation';
import { isMenuItemActive, type MenuItem, visibleMenu } from '../menu';
import { BrandLink } from './brand-link';
import { LanguageButton } from './language-dialog';
import { PointsLink } from './points-link';
import { WhitepaperLink } from './whitepaper-link';

const ICONS: Record<MenuItem['key'], LucideIcon> = {
  home: House,
  exchange: Store,
  calculator: Calculator,
  serviceIntro: Info,
  mypage: CircleUser,
  login: LogIn,
  register: UserPlus,
};

/** Mobile header: brand, points, whitepaper and language; navigation lives in the tab bar. */
export function MobileHeader() {
  const isLoggedIn = useIsLoggedIn();
  return (
    <header className="mobile-header">
      <BrandLink />
      <div className="top-bar-tools">
        {isLoggedIn ? <PointsLink /> : null}
        <WhitepaperLink iconOnly />
        <LanguageButton compact />
      </div>
    </header>
  );
}

/** Mobile bottom tab bar (980 px and below). */
export function TabBar() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const isLoggedIn = useIsLoggedIn();
  return (
    <nav aria-label={t('nav.tabBar')} className="tab-bar">
      <ul>
        {visibleMenu(isLoggedIn).map((item) => {
          const Icon = ICONS[item.key];
          const active = isMenuItemActive(item.path, pathname);
          return (
            <li key={item.key}>
              <Link
                to={item.path}
                className={`tab${active ? ' active' : ''}`}
                aria-current={active ? 'page' : undefined}
              >
                <Icon size={20} aria-hidden="true" />
                <span>{t(`nav.${item.key}`)}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
