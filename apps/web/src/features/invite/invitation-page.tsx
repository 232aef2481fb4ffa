import { CASHBACK, PATHS } from '@elex/contract';
import { BadgePercent, Coins, Wallet } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { storage } from '../../shared/storage';
import { Page } from '../../shared/ui/page';
import './invite.css';

const INVITE_CODE_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
const BENEFITS = [
  { key: 'discount', Icon: BadgePercent },
  { key: 'cashback', Icon: Wallet },
  { key: 'points', Icon: Coins },
] as const;

/**
 * /invitation?inviteCode=: a friend's invitation. The code is stored (the register form prefills it
 * from storage too) and the call to action carries it to /register?inviteCode=.
 */
export default function InvitationPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const raw = params.get('inviteCode')?.trim() ?? '';
  const inviteCode = INVITE_CODE_PATTERN.test(raw) ? raw : null;

  useEffect(() => {
    if (inviteCode) storage.setInviteCode(inviteCode);
  }, [inviteCode]);

  const registerHref = inviteCode
    ? `${PATHS.register}?${new URLSearchParams({ inviteCode })}`
    : PATHS.register;
  return (
    <Page title={t('pages.invitation.title')} intro={t('pages.invitation.intro')}>
      {inviteCode ? (
        <div className="card invitation-code">
          <p className="muted">{t('invitation.codeLabel')}</p>
          <p className="mono invitation-code-value">{inviteCode}</p>
          <p className="muted">{t('invitation.codeKept')}</p>
        </div>
      ) : (
        <p className="card muted">{t('invitation.noCode')}</p>
      )}
      <ul className="card-grid">
        {BENEFITS.map(({ key, Icon }) => (
          <li key={key} className="card">
            <Icon size={22} aria-hidden="true" className="accent" />
            <h2>{t(`invitation.benefits.${key}.title`)}</h2>
            <p className="muted">
              {t(`invitation.benefits.${key}.body`, {
                percent: CASHBACK.newUserDiscountPercent,
                days: CASHBACK.newUserDiscountDays,
              })}
            </p>
          </li>
        ))}
      </ul>
      <div className="service-actions">
        <Link to={registerHref} className="button button-primary">
          {t('invitation.cta')}
        </Link>
        <Link to={PATHS.serviceIntroInvite} className="button button-ghost">
          {t('invitation.learnMore')}
        </Link>
      </div>
    </Page>
  );
}
