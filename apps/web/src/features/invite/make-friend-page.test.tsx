import type { InviteLink, MyFriends } from '@elex/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { logIn, renderAt, resizeTo } from '../../test/helpers';
import { envelope, stubApi } from '../points/test-api';
import MakeFriendPage from './make-friend-page';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);
const msg = (key: string) => i18next.t(`msg:${key}`);

const LINK: InviteLink = {
  inviteCode: 'K7Q2M9XA',
  link: 'https://elex.example/register?inviteCode=K7Q2M9XA',
  rewards: { friendSignupPoints: 50, inviterPointsPerFriend: 100, bonusPercent: 10 },
};

const FRIENDS: MyFriends = {
  friends: [
    {
      email: 'al***@example.com',
      joinedAt: '2026-03-02T10:00:00.000Z',
      hasBoundUid: true,
      pointsEarned: 100,
      bonusEarned: '1.250000',
    },
    {
      email: null,
      joinedAt: '2026-03-01T10:00:00.000Z',
      hasBoundUid: false,
      pointsEarned: 100,
      bonusEarned: '0.000000',
    },
  ],
  total: 2,
  page: 1,
  pageSize: 10,
  totalPoints: 200,
  totalBonus: '1.250000',
};

function renderPage() {
  logIn();
  stubApi({ '/elex/user/getInviteLink': envelope(LINK), '/elex/user/myFriends': envelope(FRIENDS) });
  return renderAt(<MakeFriendPage />, '/mypage/makefriend');
}

describe('/mypage/makefriend', () => {
  it('shows the code, the link with its QR code, the reward tiers from the server and the friends', async () => {
    renderPage();
    expect(await screen.findByLabelText(t('invite.codeLabel'))).toHaveValue('K7Q2M9XA');
    expect(screen.getByLabelText(t('invite.linkLabel'))).toHaveValue(LINK.link);
    expect(screen.getByTitle(t('invite.qrLabel'))).toBeInTheDocument();
    expect(screen.getByText(t('invite.pointsValue', { points: 50 }))).toBeInTheDocument();
    expect(screen.getByText(t('invite.pointsValue', { points: 100 }))).toBeInTheDocument();
    expect(screen.getByText('10%')).toBeInTheDocument();

    const table = await screen.findByRole('region', { name: t('invite.friendsTitle') });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('al***@example.com');
    expect(rows[1]).toHaveTextContent(t('invite.yes'));
    expect(rows[1]).toHaveTextContent('1.25');
    expect(rows[2]).toHaveTextContent(t('invite.deletedFriend'));
    expect(rows[2]).toHaveTextContent(t('invite.no'));
  });

  it('copies the link: Copied successfully', async () => {
    const user = userEvent.setup();
    renderPage();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    await user.click(await screen.findByRole('button', { name: t('invite.copyLink') }));
    expect(writeText).toHaveBeenCalledWith(LINK.link);
    expect(await screen.findByText(msg('copiedSuccessfully'))).toBeInTheDocument();
  });

  it('a failed copy asks to copy by hand and selects the text', async () => {
    const user = userEvent.setup();
    renderPage();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    const original = document.execCommand;
    document.execCommand = vi.fn(() => false);
    try {
      await user.click(await screen.findByRole('button', { name: t('invite.copyCode') }));
      expect(await screen.findByText(msg('copyFailed'))).toBeInTheDocument();
      expect(screen.getByLabelText(t('invite.codeLabel'))).toHaveFocus();
    } finally {
      document.execCommand = original;
    }
  });

  it('on a phone lists the friends instead of a five-column table', async () => {
    resizeTo(390);
    renderPage();
    const list = await screen.findByRole('list', { name: t('invite.friendsTitle') });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('al***@example.com');
    expect(items[0]).toHaveTextContent('1.25');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says what could not be loaded, with a retry, instead of skeletons forever', async () => {
    logIn();
    let up = false;
    const down = () => Promise.reject(new TypeError('Failed to fetch'));
    stubApi({
      '/elex/user/getInviteLink': () => (up ? envelope(LINK) : down()),
      '/elex/user/myFriends': () => (up ? envelope(FRIENDS) : down()),
    });
    const user = userEvent.setup();
    renderAt(<MakeFriendPage />, '/mypage/makefriend');

    await vi.waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(2));
    for (const alert of screen.getAllByRole('alert')) expect(alert).toHaveTextContent(t('common.loadFailed'));
    expect(screen.queryByLabelText(t('invite.codeLabel'))).not.toBeInTheDocument();

    up = true;
    for (const retry of screen.getAllByRole('button', { name: t('common.retry') })) await user.click(retry);
    expect(await screen.findByLabelText(t('invite.codeLabel'))).toHaveValue('K7Q2M9XA');
    expect(await screen.findByRole('region', { name: t('invite.friendsTitle') })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
