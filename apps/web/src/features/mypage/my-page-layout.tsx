import { PATHS } from '@elex/contract';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import './mypage.css';

const SECTIONS = [
  { path: PATHS.myPage, key: 'mypage', end: true },
  { path: PATHS.myPagePoint, key: 'point' },
  { path: PATHS.myPageRecords, key: 'records' },
  { path: PATHS.myPageRewardHistory, key: 'rewardHistory' },
  { path: PATHS.myPageMakeFriend, key: 'makeFriend' },
  { path: PATHS.myPageSettings, key: 'settings' },
  { path: PATHS.myPageChangePassword, key: 'changePassword' },
  { path: PATHS.myPageSupport, key: 'support' },
] as const;

/** /mypage and its children share a section menu. */
export default function MyPageLayout() {
  const { t } = useTranslation();
  return (
    <div className="mypage-layout">
      <nav aria-label={t('pages.mypage.title')} className="section-nav">
        <ul>
          {SECTIONS.map((section) => (
            <li key={section.key}>
              <NavLink to={section.path} end={'end' in section} className="section-link">
                {t(`pages.${section.key}.title`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mypage-content">
        <Outlet />
      </div>
    </div>
  );
}
