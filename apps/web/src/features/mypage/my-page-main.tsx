import { PATHS } from '@elex/contract';
import {
  Bell,
  ChevronRight,
  Coins,
  FileText,
  Gift,
  History,
  KeyRound,
  LifeBuoy,
  LogOut,
  ShieldCheck,
  Trash2,
  Users,
} from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { formatInteger } from '../../shared/exchanges/format';
import { useInviteLink } from '../../shared/queries/get-invite-link';
import { useProfile } from '../../shared/queries/get-profile';
import { CopyField } from '../../shared/ui/copy-field';
import { LegalDialog, type LegalDocument } from '../../shared/ui/legal-dialog';
import { LoadError } from '../../shared/ui/load-error';
import { Page } from '../../shared/ui/page';
import { Skeleton } from '../../shared/ui/skeleton';
import { toast } from '../../shared/ui/toast';
import { logout } from './api/account';
import { DeleteAccountDialog } from './components/delete-account-dialog';

const LINKS = [
  { to: PATHS.myPagePoint, key: 'point', Icon: Coins },
  { to: PATHS.myPageMakeFriend, key: 'makeFriend', Icon: Users },
  { to: PATHS.myPageRecords, key: 'records', Icon: History },
  { to: PATHS.myPageRewardHistory, key: 'rewardHistory', Icon: Gift },
  { to: PATHS.myPageChangePassword, key: 'changePassword', Icon: KeyRound },
  { to: PATHS.myPageSettings, key: 'settings', Icon: Bell },
  { to: PATHS.myPageSupport, key: 'support', Icon: LifeBuoy },
] as const;

export default function MyPageMain() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const profile = useProfile();
  const [document, setDocument] = useState<LegalDocument | null>(null);
  const [deleting, setDeleting] = useState(false);

  const onLogout = async () => {
    // Leave the member page first, so the guard does not send the member to /login on the way out.
    navigate(PATHS.home, { replace: true });
    await logout();
    toast.success(t('msg:loggedOut'));
  };

  return (
    <Page title={t('pages.mypage.title')} intro={t('pages.mypage.intro')}>
      {profile.isPending ? (
        <Skeleton lines={4} />
      ) : profile.data ? (
        <dl className="card profile-grid">
          <div>
            <dt>{t('mypage.email')}</dt>
            <dd>{profile.data.email}</dd>
          </div>
          <div>
            <dt>{t('mypage.userCode')}</dt>
            <dd className="mono">{profile.data.userCode}</dd>
          </div>
          <div>
            <dt>{t('mypage.points')}</dt>
            <dd>
              <Link to={PATHS.myPagePoint}>{formatInteger(String(profile.data.points))}</Link>
            </dd>
          </div>
          <div>
            <dt>{t('mypage.xmeEnergy')}</dt>
            <dd>{formatInteger(String(profile.data.xmeEnergy))}</dd>
          </div>
          <div>
            <dt>{t('mypage.inviteCode')}</dt>
            <dd className="mono">{profile.data.inviteCode}</dd>
          </div>
        </dl>
      ) : (
        <LoadError isRetrying={profile.isFetching} onRetry={() => void profile.refetch()} />
      )}

      <InviteCard />

      <ul className="card menu-list">
        {LINKS.map(({ to, key, Icon }) => (
          <li key={key}>
            <Link to={to} className="menu-row">
              <Icon size={18} aria-hidden="true" />
              <span>{t(`pages.${key}.title`)}</span>
              <ChevronRight size={18} aria-hidden="true" className="menu-chevron" />
            </Link>
          </li>
        ))}
        <li>
          <button type="button" className="menu-row" onClick={() => setDocument('terms')}>
            <FileText size={18} aria-hidden="true" />
            <span>{t('footer.terms')}</span>
          </button>
        </li>
        <li>
          <button type="button" className="menu-row" onClick={() => setDocument('privacy')}>
            <ShieldCheck size={18} aria-hidden="true" />
            <span>{t('footer.privacy')}</span>
          </button>
        </li>
        <li>
          <button type="button" className="menu-row" onClick={onLogout}>
            <LogOut size={18} aria-hidden="true" />
            <span>{t('mypage.logout')}</span>
          </button>
        </li>
        <li>
          <button type="button" className="menu-row menu-row-danger" onClick={() => setDeleting(true)}>
            <Trash2 size={18} aria-hidden="true" />
            <span>{t('mypage.deleteAccount')}</span>
          </button>
        </li>
      </ul>
      <LegalDialog document={document} onClose={() => setDocument(null)} />
      <DeleteAccountDialog open={deleting} onOpenChange={setDeleting} />
    </Page>
  );
}

/** Invite friends: the link to copy and what inviting pays (values from the server's config). */
function InviteCard() {
  const { t } = useTranslation();
  const invite = useInviteLink();
  if (invite.isError && !invite.data) {
    return <LoadError isRetrying={invite.isFetching} onRetry={() => void invite.refetch()} />;
  }
  if (!invite.data) return null;
  const { rewards } = invite.data;
  return (
    <section className="card mypage-invite" aria-labelledby="mypage-invite-title">
      <div className="mypage-invite-head">
        <h2 id="mypage-invite-title">
          <Users size={18} aria-hidden="true" className="accent" /> {t('invite.myPageTitle')}
        </h2>
        <Link to={PATHS.myPageMakeFriend} className="button button-ghost">
          {t('invite.openMakeFriend')}
        </Link>
      </div>
      <p className="muted">
        {t('invite.myPageBody', { points: rewards.inviterPointsPerFriend, percent: rewards.bonusPercent })}
      </p>
      <CopyField label={t('invite.linkLabel')} value={invite.data.link} copyLabel={t('invite.copyLink')} />
    </section>
  );
}
