import type { SupportMessage } from '@elex/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearExchangeDictionary } from '../../shared/exchanges/exchange-dictionary';
import { envelope, logIn, renderAt, renderRoutes, resizeTo } from '../../test/helpers';
import SupportListPage from './support-list-page';
import SupportThreadPage from './support-thread-page';
import { detail, PNG_BASE64, PNG_BYTES, stubSupportServer, summary } from './testing/stub-support-server';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

function openThread() {
  const user = userEvent.setup();
  renderRoutes([{ path: '/mypage/support/:id', element: <SupportThreadPage /> }], '/mypage/support/12');
  return user;
}

beforeEach(() => {
  clearExchangeDictionary();
  logIn();
});

describe('/mypage/support/:id', () => {
  it('shows the thread: who wrote what and when, the screenshot, the status in words', async () => {
    const server = stubSupportServer({ detail: () => envelope(detail()) });
    openThread();
    const thread = await screen.findByRole('region', { name: t('support.thread.title') });
    const messages = within(thread).getAllByRole('article');
    expect(messages).toHaveLength(2);
    expect(messages[0]).toHaveTextContent(t('support.thread.you'));
    expect(messages[0]).toHaveTextContent('I traded 25,000 USDT that day.');
    expect(
      within(messages[0] as HTMLElement).getByRole('img', {
        name: t('support.thread.imageAlt', { author: t('support.thread.you') }),
      }),
    ).toHaveAttribute('src', `data:image/png;base64,${PNG_BASE64}`);
    expect(messages[1]).toHaveTextContent(t('support.thread.support'));
    expect(messages[1]).toHaveTextContent('We are checking the exchange report of that day.');

    expect(screen.getByText(t('support.kinds.missingCashback'))).toBeInTheDocument();
    expect(screen.getByText('Bitget · UID 770001')).toBeInTheDocument();
    expect(screen.getByText(t('support.statuses.open'))).toBeInTheDocument();
    expect(server.requests('/elex/support/detail')).toEqual([{ id: '12' }]);
  });

  it('says where a screenshot was erased after its retention, in the reader’s language', async () => {
    await i18next.changeLanguage('ko');
    const [first, second] = detail().messages;
    stubSupportServer({
      detail: () =>
        envelope(
          detail({
            status: 'closed',
            messages: [
              { ...(first as SupportMessage), image: null, imageErased: true },
              second as SupportMessage,
            ],
          }),
        ),
    });
    openThread();
    const thread = await screen.findByRole('region', { name: t('support.thread.title') });
    const [erased, plain] = within(thread).getAllByRole('article');
    expect(erased).toHaveTextContent(
      '스크린샷이 삭제되었습니다. 스크린샷은 요청이 종료된 후 365일 동안 보관됩니다.',
    );
    expect(within(thread).queryByRole('img')).toBeNull();
    expect(plain).not.toHaveTextContent('스크린샷이 삭제되었습니다');
  });

  it('sends a reply with a screenshot and shows it in the thread', async () => {
    const reply = {
      id: '3',
      author: 'member' as const,
      text: 'Here is the trade history.',
      image: `data:image/png;base64,${PNG_BASE64}`,
      imageErased: false,
      createdAt: '2026-01-15T13:00:00.000Z',
    };
    const server = stubSupportServer({
      detail: () => envelope(detail({ status: 'answered' })),
      reply: () =>
        envelope(detail({ status: 'open', messages: [...detail().messages, reply] }), 0, 'Reply sent'),
    });
    const user = openThread();
    const text = await screen.findByRole('textbox', { name: t('support.reply.text') });
    await user.type(text, 'Here is the trade history.');
    await user.upload(
      screen.getByLabelText(t('support.image')),
      new File([PNG_BYTES], 'history.png', { type: 'image/png' }),
    );
    await screen.findByRole('img', { name: t('support.imagePreview', { name: 'history.png' }) });
    await user.click(screen.getByRole('button', { name: t('support.reply.send') }));

    await waitFor(() =>
      expect(server.requests('/elex/support/reply')).toEqual([
        {
          id: '12',
          text: 'Here is the trade history.',
          image: { contentType: 'image/png', data: PNG_BASE64 },
        },
      ]),
    );
    const thread = screen.getByRole('region', { name: t('support.thread.title') });
    await waitFor(() => expect(within(thread).getAllByRole('article')).toHaveLength(3));
    // A toast: its region loads at the first one (or after the first paint), so it may come a moment later.
    expect(await screen.findByText(i18next.t('msg:supportReplySent'))).toBeInTheDocument();
    expect(screen.getByText(t('support.statuses.open'))).toBeInTheDocument();
    expect(text).toHaveValue('');
    expect(
      screen.queryByRole('img', { name: t('support.imagePreview', { name: 'history.png' }) }),
    ).toBeNull();
  });

  it('will not send an empty reply', async () => {
    const server = stubSupportServer({ detail: () => envelope(detail()) });
    const user = openThread();
    await user.click(await screen.findByRole('button', { name: t('support.reply.send') }));
    expect(await screen.findByRole('textbox', { name: t('support.reply.text') })).toHaveAccessibleDescription(
      new RegExp(i18next.t('msg:requiredInformation')),
    );
    expect(server.requests('/elex/support/reply')).toEqual([]);
  });

  it('says how a closed request ended and offers a new one instead of a reply', async () => {
    stubSupportServer({
      detail: () => envelope(detail({ kind: 'ownership', status: 'closed', resolution: 'verified' })),
    });
    openThread();
    expect(await screen.findByText(t('support.resolutions.verified'))).toBeInTheDocument();
    expect(screen.getByText(t('support.statuses.closed'))).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: t('support.reply.text') })).toBeNull();
    expect(screen.getByRole('link', { name: t('support.newRequest') })).toHaveAttribute(
      'href',
      '/mypage/support/new',
    );
  });

  it('tells the member who disputed a UID that its holder was confirmed, not that they were', async () => {
    stubSupportServer({
      detail: () => envelope(detail({ kind: 'uidBoundByOther', status: 'closed', resolution: 'verified' })),
    });
    openThread();
    expect(await screen.findByText(t('support.resolutions.holderConfirmed'))).toBeInTheDocument();
    expect(screen.queryByText(t('support.resolutions.verified'))).toBeNull();
  });

  it('says a request that is not the member’s was not found', async () => {
    stubSupportServer({ detail: () => envelope(null, 1004, 'Not found') });
    openThread();
    expect(await screen.findByText(t('support.notFound'))).toBeInTheDocument();
  });
});

describe('/mypage/support', () => {
  const requests = [
    summary({ id: '12', status: 'answered', updatedAt: '2026-01-16T09:00:00.000Z' }),
    summary({ id: '9', kind: 'account', platId: null, uid: null, status: 'closed', resolution: 'closed' }),
  ];

  it('lists the member’s requests with topic, UID, status and last activity, each opening its thread', async () => {
    resizeTo(1280);
    stubSupportServer({ list: () => envelope({ records: requests, total: 2, page: 1, pageSize: 20 }) });
    renderAt(<SupportListPage />, '/mypage/support');
    const table = await screen.findByRole('table', { name: t('pages.support.title') });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const first = within(rows[0] as HTMLElement);
    expect(
      first.getByRole('link', {
        name: t('support.requestTitle', { id: '12', kind: t('support.kinds.missingCashback') }),
      }),
    ).toHaveAttribute('href', '/mypage/support/12');
    expect(first.getByText('Bitget · UID 770001')).toBeInTheDocument();
    expect(first.getByText(t('support.statuses.answered'))).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText(t('support.statuses.closed'))).toBeInTheDocument();
  });

  it('lists them as entries on a phone', async () => {
    resizeTo(390);
    stubSupportServer({ list: () => envelope({ records: requests, total: 2, page: 1, pageSize: 20 }) });
    renderAt(<SupportListPage />, '/mypage/support');
    const list = await screen.findByRole('list', { name: t('pages.support.title') });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says there is no request yet and offers to open one', async () => {
    stubSupportServer({ list: () => envelope({ records: [], total: 0, page: 1, pageSize: 20 }) });
    renderAt(<SupportListPage />, '/mypage/support');
    expect(await screen.findByText(t('support.empty'))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t('support.newRequest') })).toHaveAttribute(
      'href',
      '/mypage/support/new',
    );
  });
});
