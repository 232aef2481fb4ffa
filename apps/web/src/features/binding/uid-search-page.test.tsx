import { screen } from '@testing-library/react';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearExchangeDictionary } from '../../shared/exchanges/exchange-dictionary';
import { dictionaryEntry, dictionaryOf } from '../../test/exchange-fixtures';
import { envelope, renderAt } from '../../test/helpers';
import UidSearchPage from './uid-search-page';

const t = (key: string) => i18next.t(key);

const DICTIONARY = dictionaryOf([dictionaryEntry()]);

function stubServer(verify: () => Response) {
  const fetchMock = vi.fn(async (url: RequestInfo | URL, _init?: RequestInit) => {
    if (String(url) === '/elex/user/config/res.json') return envelope(DICTIONARY);
    if (String(url) === '/elex/user/verifyExchangeUid') return verify();
    return envelope(null, 1004, 'Not found', 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

beforeEach(() => {
  clearExchangeDictionary();
});

describe('/exchangeNo (UID search result)', () => {
  it('echoes the search and, when the server cannot answer now (rate limit), gives guidance without a verdict', async () => {
    const fetchMock = stubServer(() =>
      envelope(null, 1029, 'Too many requests, please try again later', 429),
    );
    renderAt(<UidSearchPage />, '/exchangeNo?uid=40512345&platId=3');
    expect(screen.getByText('40512345')).toBeInTheDocument();
    expect(await screen.findByText(t('uidSearch.unanswered'))).toBeInTheDocument();
    expect(await screen.findByText('Bybit')).toBeInTheDocument();
    expect(screen.queryByText(t('uidSearch.eligible'))).not.toBeInTheDocument();
    expect(screen.queryByText(i18next.t('msg:uidNotReferred'))).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: t('uidSearch.ruleTitle') })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Bybit sign-up page/ })).toHaveAttribute('target', '_blank');
    // The call was silent: the page words the open question itself, no toast.
    expect(screen.queryByText('Too many requests, please try again later')).not.toBeInTheDocument();
    const [, init] =
      fetchMock.mock.calls.find(([url]) => String(url) === '/elex/user/verifyExchangeUid') ?? [];
    expect(JSON.parse(String((init as RequestInit | undefined)?.body))).toEqual({
      uid: '40512345',
      platId: 3,
    });
  });

  it('treats an exchange the server does not know (1004) as a wrong search: no binding offered', async () => {
    stubServer(() => envelope(null, 1004, i18next.t('msg:exchangeNotFound')));
    renderAt(<UidSearchPage />, '/exchangeNo?uid=40512345&platId=99');
    expect(await screen.findByRole('alert')).toHaveTextContent(t('uidSearch.notPartner'));
    expect(screen.getByRole('link', { name: t('uidSearch.searchAgain') })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('link', { name: t('uidSearch.bind') })).not.toBeInTheDocument();
    expect(screen.queryByText(t('uidSearch.unanswered'))).not.toBeInTheDocument();
  });

  it.each([
    ['notReferred', () => i18next.t('msg:uidNotReferred')],
    ['boundToOther', () => i18next.t('msg:uidAlreadyBound')],
    ['eligible', () => t('uidSearch.eligible')],
    ['boundToYou', () => t('uidSearch.boundToYou')],
  ])('shows the server’s answer %s', async (eligibility, text) => {
    stubServer(() => envelope({ platId: 3, uid: '40512345', eligibility }));
    renderAt(<UidSearchPage />, '/exchangeNo?uid=40512345&platId=3');
    expect(await screen.findByText(text())).toBeInTheDocument();
  });

  it('says a UID its exchange does not list yet may be new (up to 48 hours), not that it was not referred', async () => {
    stubServer(() => envelope({ platId: 3, uid: '40512345', eligibility: 'notYetListed' }));
    renderAt(<UidSearchPage />, '/exchangeNo?uid=40512345&platId=3');
    expect(
      await screen.findByText(i18next.t('uidSearch.notYetListed', { exchange: 'Bybit', hours: 48 })),
    ).toBeInTheDocument();
    expect(screen.queryByText(i18next.t('msg:uidNotReferred'))).not.toBeInTheDocument();
  });

  it.each(['eligible', 'unanswered', 'notYetListed'])(
    'offers to bind the UID (%s), carrying the exchange and the UID to /uidlinking',
    async (answer) => {
      stubServer(() =>
        answer === 'unanswered'
          ? envelope(null, 1029, 'Too many requests, please try again later', 429)
          : envelope({ platId: 3, uid: '40512345', eligibility: answer }),
      );
      renderAt(<UidSearchPage />, '/exchangeNo?uid=40512345&platId=3');
      const bind = await screen.findByRole('link', { name: t('uidSearch.bind') });
      const target = new URL(bind.getAttribute('href') ?? '', 'http://localhost');
      expect(target.pathname).toBe('/uidlinking');
      expect(Object.fromEntries(target.searchParams)).toEqual({ platId: '3', uid: '40512345' });
    },
  );

  it.each([
    ['notReferred', () => i18next.t('msg:uidNotReferred')],
    ['boundToOther', () => i18next.t('msg:uidAlreadyBound')],
  ])('does not offer a binding that must fail (%s)', async (eligibility, text) => {
    stubServer(() => envelope({ platId: 3, uid: '40512345', eligibility }));
    renderAt(<UidSearchPage />, '/exchangeNo?uid=40512345&platId=3');
    expect(await screen.findByText(text())).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: t('uidSearch.bind') })).not.toBeInTheDocument();
  });

  it('leads a UID the member holds already to its page instead of binding it again', async () => {
    stubServer(() => envelope({ platId: 3, uid: '40512345', eligibility: 'boundToYou' }));
    renderAt(<UidSearchPage />, '/exchangeNo?uid=40512345&platId=3');
    const detail = await screen.findByRole('link', { name: t('uidSearch.seeBound') });
    expect(detail).toHaveAttribute('href', '/exchangeLinkDetail?platId=3&UID=40512345');
    expect(screen.queryByRole('link', { name: t('uidSearch.bind') })).not.toBeInTheDocument();
  });

  it('says the search is not valid when uid or platId is missing or malformed', () => {
    stubServer(() => envelope({ platId: 3, uid: 'x', eligibility: 'eligible' }));
    renderAt(<UidSearchPage />, '/exchangeNo?uid=a%20b&platId=x');
    expect(screen.getByRole('alert')).toHaveTextContent(t('uidSearch.invalid'));
  });
});
