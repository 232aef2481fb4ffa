import type { MyFriends } from '@elex/contract';
import { CircleCheck, CircleMinus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatInteger, formatUsdt } from '../../../shared/exchanges/format';
import { useIsWide } from '../../../shared/hooks/use-is-wide';
import { dateTimeFormat } from '../../../shared/i18n/intl-formats';

/** Friends who registered with the member's code and what each earned the member. */
export function FriendsTable({ data }: { data: MyFriends }) {
  const { t } = useTranslation();
  const isWide = useIsWide();
  if (data.friends.length === 0) return <p className="card muted">{t('invite.noFriends')}</p>;
  const joined = (iso: string) => dateTimeFormat({ dateStyle: 'medium' }).format(new Date(iso));
  const flag = (hasBoundUid: boolean) =>
    hasBoundUid ? (
      <span className="friend-flag friend-flag-yes">
        <CircleCheck size={14} aria-hidden="true" /> {t('invite.yes')}
      </span>
    ) : (
      <span className="friend-flag">
        <CircleMinus size={14} aria-hidden="true" /> {t('invite.no')}
      </span>
    );

  if (!isWide) {
    // A phone shows a list: five columns do not fit 390 px.
    return (
      <ul className="card entry-list" aria-label={t('invite.friendsTitle')}>
        {data.friends.map((friend) => (
          <li key={`${friend.joinedAt}-${friend.email ?? ''}`}>
            <div>
              <p className="entry-title mono">{friend.email ?? t('invite.deletedFriend')}</p>
              <p className="entry-detail">
                {t('invite.columns.joined')} {joined(friend.joinedAt)} ·{' '}
                <span className={friend.hasBoundUid ? 'friend-flag friend-flag-yes' : 'friend-flag'}>
                  {friend.hasBoundUid ? t('invite.columns.uidBound') : t('invite.noUidYet')}
                </span>
              </p>
            </div>
            <div className="entry-amount">
              <p>{t('invite.pointsValue', { points: formatInteger(String(friend.pointsEarned)) })}</p>
              <p className="entry-detail">
                {formatUsdt(friend.bonusEarned)} {t('cashback.usdt')}
              </p>
            </div>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div className="table-scroll" role="region" aria-label={t('invite.friendsTitle')} tabIndex={0}>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">{t('invite.columns.friend')}</th>
            <th scope="col">{t('invite.columns.joined')}</th>
            <th scope="col">{t('invite.columns.uidBound')}</th>
            <th scope="col" className="numeric">
              {t('invite.columns.points')}
            </th>
            <th scope="col" className="numeric">
              {t('invite.columns.bonus')}
            </th>
          </tr>
        </thead>
        <tbody>
          {data.friends.map((friend) => (
            <tr key={`${friend.joinedAt}-${friend.email ?? ''}`}>
              <td className="mono">{friend.email ?? t('invite.deletedFriend')}</td>
              <td>{joined(friend.joinedAt)}</td>
              <td>{flag(friend.hasBoundUid)}</td>
              <td className="numeric">{formatInteger(String(friend.pointsEarned))}</td>
              <td className="numeric strong">{formatUsdt(friend.bonusEarned)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
