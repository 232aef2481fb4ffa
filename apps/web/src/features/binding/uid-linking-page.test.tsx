import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearExchangeDictionary } from '../../shared/exchanges/exchange-dictionary';
import { dictionaryEntry, dictionaryOf } from '../../test/exchange-fixtures';
import { envelope, logIn, renderAt, renderRoutes } from '../../test/helpers';
import SupportNewPage from '../support/support-new-page';
import UidLinkingPage from './uid-linking-page';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

const DICTIONARY = dictionaryOf([dictionaryEntry()]);

type Answer = () => Response;

function stubServer({ verify, bind }: { verify: Answer; bind?: Answer }) {
  const fetchMock = vi.fn(async (url: RequestInfo | URL, _init?: RequestInit) => {
    const path = String(url);
    if (path === '/elex/user/config/res.json') return envelope(DICTIONARY);
    if (path === '/elex/user/verifyExchangeUid') return verify();
    if (path === '/elex/user/bindExchangeUid' && bind) return bind();
    return envelope(null, 1004, 'Not found', 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const eligibility = (value: string) => () => envelope({ platId: 3, uid: '40512345', eligibility: value });
const calledPaths = (fetchMock: ReturnType<typeof stubServer>) =>
  fetchMock.mock.calls.map(([url]) => String(url));

/** Opens the page prefilled from the query and sends the form with a valid address. */
async function submit(url = '/uidlinking?platId=3&uid=40512345') {
  const user = userEvent.setup();
  renderAt(<UidLinkingPage />, url);
  await user.type(await screen.findByRole('textbox', { name: t('binding.address') }), ADDRESS);
  await user.click(screen.getByRole('button', { name: t('binding.submit') }));
  return user;
}

beforeEach(() => {
  clearExchangeDictionary();
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: 1280 });
  logIn();
});

describe('/uidlinking', () => {
  it('prefills the exchange and the UID from the query', async () => {
    stubServer({ verify: eligibility('eligible') });
    renderAt(<UidLinkingPage />, '/uidlinking?platId=3&uid=40512345');
    expect(await screen.findByRole('combobox', { name: t('binding.exchange') })).toHaveValue('3');
    expect(screen.getByRole('textbox', { name: t('binding.uid') })).toHaveValue('40512345');
  });

  it('binds an eligible UID and says so in the success dialog', async () => {
    const fetchMock = stubServer({
      verify: eligibility('eligible'),
      bind: () =>
        envelope({
          platId: 3,
          uid: '40512345',
          balance: '0.000000',
          address: ADDRESS,
          boundAt: '2026-10-16T00:00:00.000Z',
        }),
    });
    await submit();
    expect(await screen.findByRole('dialog', { name: t('msg:bindingSuccessful') })).toBeInTheDocument();
    expect(calledPaths(fetchMock)).toContain('/elex/user/bindExchangeUid');
  });

  describe('a UID not registered with our referral code (spec sections 2 and 8)', () => {
    it("fails with 'Binding failed' and the spec's message, explains the fix and does not try to bind", async () => {
      const fetchMock = stubServer({ verify: eligibility('notReferred') });
      await submit();

      const dialog = await screen.findByRole('dialog', { name: t('msg:bindingFailed') });
      expect(within(dialog).getByRole('alert')).toHaveTextContent(t('msg:uidNotReferred'));
      expect(
        within(dialog).getByRole('heading', { name: t('binding.notEligible.fixTitle') }),
      ).toBeInTheDocument();
      expect(dialog).toHaveTextContent(t('binding.notEligible.why', { uid: '40512345', exchange: 'Bybit' }));
      expect(calledPaths(fetchMock)).not.toContain('/elex/user/bindExchangeUid');
    });

    it('leads from the failure to the sign-up dialog with our link', async () => {
      stubServer({ verify: eligibility('notReferred') });
      const user = await submit();
      const failed = await screen.findByRole('dialog', { name: t('msg:bindingFailed') });

      await user.click(
        within(failed).getByRole('button', { name: t('binding.signUpWithLink', { exchange: 'Bybit' }) }),
      );

      const signup = await screen.findByRole('dialog', {
        name: t('exchanges.signup.title', { name: 'Bybit' }),
      });
      expect(within(signup).getByText('ELEXCB')).toBeInTheDocument();
      await waitFor(() =>
        expect(screen.queryByRole('dialog', { name: t('msg:bindingFailed') })).not.toBeInTheDocument(),
      );
    });

    it('says the same when the server refuses the binding itself, recognising the refusal by its key', async () => {
      stubServer({
        // The check could not answer (rate limit); the binding's refusal names its message key. The
        // server's text is in another language than the page: the key, not the text, decides.
        verify: () => envelope(null, 1029, 'Too many requests, please try again later', 429),
        bind: () =>
          envelope({ messageKey: 'uidNotReferred' }, 1002, i18next.t('msg:uidNotReferred', { lng: 'zh' })),
      });
      await submit();
      const dialog = await screen.findByRole('dialog', { name: t('msg:bindingFailed') });
      expect(within(dialog).getByRole('alert')).toHaveTextContent(t('msg:uidNotReferred'));
      expect(
        within(dialog).getByRole('heading', { name: t('binding.notEligible.fixTitle') }),
      ).toBeInTheDocument();
    });

    it('does not take another refusal for "not referred"', async () => {
      stubServer({
        verify: () => envelope(null, 1029, 'Too many requests, please try again later', 429),
        bind: () => envelope({ messageKey: 'exchangeUnavailable' }, 1002, t('msg:exchangeUnavailable')),
      });
      await submit();
      const dialog = await screen.findByRole('dialog', { name: t('msg:bindingFailed') });
      expect(within(dialog).getByRole('alert')).toHaveTextContent(t('msg:exchangeUnavailable'));
      expect(
        within(dialog).queryByRole('heading', { name: t('binding.notEligible.fixTitle') }),
      ).not.toBeInTheDocument();
    });
  });

  it('tells a UID not listed yet that it can take 48 hours and a mail will come, asking the server so it records the wait', async () => {
    const fetchMock = stubServer({
      verify: eligibility('notYetListed'),
      bind: () =>
        envelope({ messageKey: 'uidNotYetListed' }, 1002, i18next.t('msg:uidNotYetListed', { hours: 48 })),
    });
    await submit();
    const dialog = await screen.findByRole('dialog', { name: t('binding.notYetListed.title') });
    expect(within(dialog).getByRole('status')).toHaveTextContent(t('msg:uidNotYetListed', { hours: 48 }));
    expect(dialog).not.toHaveTextContent(t('msg:uidNotReferred'));
    expect(within(dialog).getByRole('link', { name: t('binding.notYetListed.howToFix') })).toHaveAttribute(
      'href',
      '/exchangeNo?uid=40512345&platId=3',
    );
    expect(calledPaths(fetchMock)).toContain('/elex/user/bindExchangeUid');
  });

  it('fails with the server’s reason for an exchange it does not know, without trying to bind', async () => {
    const fetchMock = stubServer({ verify: () => envelope(null, 1004, t('msg:exchangeNotFound')) });
    await submit('/uidlinking?platId=99&uid=40512345');
    const dialog = await screen.findByRole('dialog', { name: t('msg:bindingFailed') });
    expect(within(dialog).getByRole('alert')).toHaveTextContent(t('msg:exchangeNotFound'));
    expect(calledPaths(fetchMock)).not.toContain('/elex/user/bindExchangeUid');
  });

  it("fails with 'This account is already bound!' for a UID bound to someone else", async () => {
    const fetchMock = stubServer({ verify: eligibility('boundToOther') });
    await submit();
    const dialog = await screen.findByRole('dialog', { name: t('msg:bindingFailed') });
    expect(within(dialog).getByRole('alert')).toHaveTextContent(t('msg:uidAlreadyBound'));
    expect(calledPaths(fetchMock)).not.toContain('/elex/user/bindExchangeUid');
  });

  it('offers a member whose UID someone else bound to dispute it, with the exchange and UID filled in', async () => {
    stubServer({ verify: eligibility('boundToOther') });
    const user = userEvent.setup();
    const { router } = renderRoutes(
      [
        { path: '/uidlinking', element: <UidLinkingPage /> },
        { path: '/mypage/support/new', element: <SupportNewPage /> },
      ],
      '/uidlinking?platId=3&uid=40512345',
    );
    await user.type(await screen.findByRole('textbox', { name: t('binding.address') }), ADDRESS);
    await user.click(screen.getByRole('button', { name: t('binding.submit') }));
    const dialog = await screen.findByRole('dialog', { name: t('msg:bindingFailed') });
    expect(within(dialog).getByRole('alert')).toHaveTextContent(t('msg:uidAlreadyBound'));

    await user.click(within(dialog).getByRole('link', { name: t('binding.support.dispute') }));

    expect(router.state.location.pathname).toBe('/mypage/support/new');
    expect(await screen.findByRole('combobox', { name: t('support.kind') })).toHaveValue('uidBoundByOther');
    expect(screen.getByRole('combobox', { name: t('support.exchange') })).toHaveValue('3');
    expect(screen.getByRole('textbox', { name: t('support.uid') })).toHaveValue('40512345');
    // A dispute needs the address that would receive the UID's withdrawals.
    expect(screen.getByRole('textbox', { name: t('support.address') })).toHaveValue('');
  });

  it('offers the dispute too when the check could not answer and the binding is refused as already bound', async () => {
    stubServer({
      verify: () => envelope(null, 1029, 'Too many requests, please try again later', 429),
      bind: () => envelope({ messageKey: 'uidAlreadyBound' }, 1002, t('msg:uidAlreadyBound')),
    });
    await submit();
    const dialog = await screen.findByRole('dialog', { name: t('msg:bindingFailed') });
    expect(within(dialog).getByRole('link', { name: t('binding.support.dispute') })).toHaveAttribute(
      'href',
      '/mypage/support/new?kind=uidBoundByOther&platId=3&uid=40512345',
    );
  });

  it('offers no dispute of a UID the member holds already, but support', async () => {
    stubServer({
      verify: eligibility('boundToYou'),
      bind: () => envelope({ messageKey: 'uidAlreadyBound' }, 1002, t('msg:uidAlreadyBound')),
    });
    await submit();
    const dialog = await screen.findByRole('dialog', { name: t('msg:bindingFailed') });
    expect(within(dialog).queryByRole('link', { name: t('binding.support.dispute') })).toBeNull();
    expect(within(dialog).getByRole('link', { name: t('binding.support.contact') })).toHaveAttribute(
      'href',
      '/mypage/support/new?platId=3&uid=40512345',
    );
  });

  it('offers support from the other refusals', async () => {
    stubServer({ verify: eligibility('notReferred') });
    await submit();
    const dialog = await screen.findByRole('dialog', { name: t('msg:bindingFailed') });
    expect(within(dialog).getByRole('link', { name: t('binding.support.contact') })).toHaveAttribute(
      'href',
      '/mypage/support/new?platId=3&uid=40512345',
    );
  });

  it('offers to load the exchange list again when it could not be loaded', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const user = userEvent.setup();
    renderAt(<UidLinkingPage />, '/uidlinking?platId=3');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(t('homePublic.loadFailed'));

    stubServer({ verify: eligibility('eligible') });
    await user.click(within(alert).getByRole('button', { name: t('common.retry') }));

    expect(await screen.findByRole('combobox', { name: t('binding.exchange') })).toHaveValue('3');
  });
});
