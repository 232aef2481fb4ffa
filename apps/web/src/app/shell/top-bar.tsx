import { Link, useLocation } from 'react-router';
import { useIsLoggedIn } from '../../shared/hooks/use-is-logged-in';
import { useTranslation } from '../../shared/i18n/use-translation';
import { isMenuItemActive, visibleMenu } from '../menu';
import { BrandLink } from './brand-link';
import { LanguageButton } from './language-dialog';
import { PointsLink } from './points-link';
import { WhitepaperLink } from './whitepaper-link';

/** Desktop top bar (above 980 px). */
export function TopBar() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const isLoggedIn = useIsLoggedIn();
  return (
    <header className="top-bar">
      <div className="top-bar-inner">
        <BrandLink />
        <nav aria-label={t('nav.main')} className="top-nav">
          <ul>
            {visibleMenu(isLoggedIn).map((item) => {
              const active = isMenuItemActive(item.path, pathname);
              return (
                <li key={item.key}>
                  <Link
                    to={item.path}
                    className={`nav-link${active ? ' active' : ''}${item.key === 'register' ? ' nav-cta' : ''}`}
                    aria-current={active ? 'page' : undefined}
                  >
                    {t(`nav.${item.key}`)}
                  </Link>
                </li>
              );
            })}
            <li>
              <WhitepaperLink />
            </li>
          </ul>
        </nav>
        <div className="top-bar-tools">
          {isLoggedIn ? <PointsLink /> : null}
          <LanguageButton />
        </div>
      </div>
    </header>
  );
}
