import { BadgePercent, Gift, UserPlus } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatInteger, formatUsdt } from '../../shared/exchanges/format';
import { useInviteLink } from '../../shared/queries/get-invite-link';
import { CopyField } from '../../shared/ui/copy-field';
import { LoadError } from '../../shared/ui/load-error';
import { Page } from '../../shared/ui/page';
import { Pager } from '../../shared/ui/pager';
import { Skeleton } from '../../shared/ui/skeleton';
import { useMyFriends } from './api/get-my-friends';
import { FriendsTable } from './components/friends-table';
import './invite.css';

const PAGE_SIZE = 10;

/** /mypage/makefriend: the invite code and link to share (with a QR code), the rewards, the friends. */
export default function MakeFriendPage() {
  const { t } = useTranslation();
  const invite = useInviteLink();
  const [page, setPage] = useState(1);
  const friends = useMyFriends(page, PAGE_SIZE);
  const rewards = invite.data?.rewards;

  return (
    <Page title={t('pages.makeFriend.title')} intro={t('pages.makeFriend.intro')}>
      {invite.data ? (
        <section className="card invite-share" aria-labelledby="invite-share-title">
          <h2 id="invite-share-title" className="visually-hidden">
            {t('invite.shareTitle')}
          </h2>
          <div className="invite-share-fields">
            <CopyField
              label={t('invite.codeLabel')}
              value={invite.data.inviteCode}
              copyLabel={t('invite.copyCode')}
            />
            <CopyField
              label={t('invite.linkLabel')}
              value={invite.data.link}
              copyLabel={t('invite.copyLink')}
            />
          </div>
          <figure className="invite-qr">
            <div className="invite-qr-code">
              <QRCodeSVG value={invite.data.link} size={148} marginSize={2} title={t('invite.qrLabel')} />
            </div>
            <figcaption className="muted">{t('invite.qrHint')}</figcaption>
          </figure>
        </section>
      ) : invite.isError ? (
        <LoadError isRetrying={invite.isFetching} onRetry={() => void invite.refetch()} />
      ) : (
        <Skeleton lines={3} />
      )}

      {rewards ? (
        <section className="invite-section" aria-labelledby="invite-rewards-title">
          <h2 id="invite-rewards-title">{t('invite.rewardsTitle')}</h2>
          <ul className="card-grid invite-tiers">
            <li className="card">
              <UserPlus size={22} aria-hidden="true" className="accent" />
              <p className="invite-tier-value">
                {t('invite.pointsValue', { points: rewards.friendSignupPoints })}
              </p>
              <p className="muted">{t('invite.tierFriend')}</p>
            </li>
            <li className="card">
              <Gift size={22} aria-hidden="true" className="accent" />
              <p className="invite-tier-value">
                {t('invite.pointsValue', { points: rewards.inviterPointsPerFriend })}
              </p>
              <p className="muted">{t('invite.tierInviter')}</p>
            </li>
            <li className="card">
              <BadgePercent size={22} aria-hidden="true" className="accent" />
              <p className="invite-tier-value">
                {t('invite.percentValue', { percent: rewards.bonusPercent })}
              </p>
              <p className="muted">{t('invite.tierBonus')}</p>
            </li>
          </ul>
        </section>
      ) : null}

      {/* Not a landmark of its own: the friends table below is the labelled, scrollable region. */}
      <section className="invite-section">
        <h2>{t('invite.friendsTitle')}</h2>
        {friends.data ? (
          <>
            <dl className="stat-grid">
              <div className="card stat">
                <dt>{t('invite.totalFriends')}</dt>
                <dd>{formatInteger(String(friends.data.total))}</dd>
              </div>
              <div className="card stat">
                <dt>{t('invite.totalPoints')}</dt>
                <dd>{formatInteger(String(friends.data.totalPoints))}</dd>
              </div>
              <div className="card stat">
                <dt>{t('invite.totalBonus')}</dt>
                <dd>
                  {formatUsdt(friends.data.totalBonus)} <span className="unit">{t('cashback.usdt')}</span>
                </dd>
              </div>
            </dl>
            <FriendsTable data={friends.data} />
            <Pager page={page} pageSize={PAGE_SIZE} total={friends.data.total} onPage={setPage} />
          </>
        ) : friends.isError ? (
          <LoadError isRetrying={friends.isFetching} onRetry={() => void friends.refetch()} />
        ) : (
          <Skeleton lines={3} />
        )}
      </section>
    </Page>
  );
}
