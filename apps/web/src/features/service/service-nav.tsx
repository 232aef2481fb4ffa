import { PATHS } from '@elex/contract';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';

const PAGES = [
  { key: 'intro', path: PATHS.serviceIntro },
  { key: 'more', path: PATHS.serviceIntroMore },
  { key: 'invite', path: PATHS.serviceIntroInvite },
] as const;

/** The three service pages, one after another. */
export function ServiceNav() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <nav className="service-nav" aria-label={t('service.nav.label')}>
      <ul>
        {PAGES.map((page) => (
          <li key={page.key}>
            <Link
              to={page.path}
              className={`section-link${pathname === page.path ? ' active' : ''}`}
              aria-current={pathname === page.path ? 'page' : undefined}
            >
              {t(`service.nav.${page.key}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export interface TextSection {
  title: string;
  body: string;
}

/** Reads a list of sections from the locale file, with values filled in. */
export function useSections(key: string, values: Record<string, string | number> = {}): TextSection[] {
  const { t } = useTranslation();
  const sections = t(key, { returnObjects: true, ...values });
  return Array.isArray(sections) ? (sections as TextSection[]) : [];
}
