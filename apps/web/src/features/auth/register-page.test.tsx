import { State } from '@elex/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, renderAt, renderRoutes } from '../../test/helpers';
import RegisterPage from './register-page';
import { expectCoolDownNote, GOOD_CODE, ISSUED_TOKEN, stubAuthServer } from './testing/stub-auth-server';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);
const msg = (key: string) => i18next.t(`msg:${key}`);

// The browser router keeps window.location on the page; analytics read the page from it.
beforeEach(() => window.history.pushState({}, '', '/register'));
afterEach(() => window.history.pushState({}, '', '/'));

const emailInput = () => screen.getByLabelText(t('auth.email'));
const passwordInput = () => screen.getByLabelText(t('auth.password'));
const submitButton = () => screen.getByRole('button', { name: t('auth.registerSubmit') });
const agreement = () => screen.getByRole('checkbox', { name: /agree to the Terms of use/ });

async function fillForm(user: ReturnType<typeof userEvent.setup>, email = 'newcomer@example.com') {
  await user.type(emailInput(), email);
  await user.type(passwordInput(), 'Secret#123');
}

describe('/register: the e-mail (spec section 5)', () => {
  it("says 'Email already exists' on blur and does not go on to the code", async () => {
    const server = stubAuthServer({
      verifyEmail: (body) => envelope({ hasEmail: body.email === 'member@example.com' }),
    });
    const user = userEvent.setup();
    renderAt(<RegisterPage />, '/register');
    await fillForm(user, 'Member@Example.com');

    expect(await screen.findByText(msg('emailExists'))).toBeInTheDocument();
    expect(emailInput()).toHaveAccessibleDescription(msg('emailExists'));
    expect(server.bodies('/elex/user/verifyEmail')).toEqual([{ email: 'member@example.com' }]);
    expect(submitButton()).toBeDisabled();
    await user.click(submitButton());
    expect(server.bodies('/elex/user/verifyCode')).toEqual([]);

    // Another address clears the warning.
    await user.clear(emailInput());
    await user.type(emailInput(), 'other@example.com');
    expect(screen.queryByText(msg('emailExists'))).not.toBeInTheDocument();
    await user.tab();
    await waitFor(() => expect(server.bodies('/elex/user/verifyEmail')).toHaveLength(2));
    expect(submitButton()).toBeEnabled();
  });

  it('ignores a late answer for an e-mail that has been changed since', async () => {
    // The check for the first address answers last, after the one for the corrected address.
    const answers: Record<string, (response: Response) => void> = {};
    stubAuthServer({
      verifyEmail: (body) => new Promise((resolve) => (answers[String(body.email)] = resolve)),
    });
    const user = userEvent.setup();
    renderAt(<RegisterPage />, '/register');
    await user.type(emailInput(), 'member@example.com');
    await user.tab();
    // The first check must be on its way before the address changes, or there is no late answer to ignore.
    await waitFor(() => expect(Object.keys(answers)).toEqual(['member@example.com']));
    await user.clear(emailInput());
    await user.type(emailInput(), 'newcomer@example.com');
    await user.tab();
    await waitFor(() => expect(Object.keys(answers)).toHaveLength(2));

    await act(async () => answers['newcomer@example.com']?.(envelope({ hasEmail: false })));
    await act(async () => answers['member@example.com']?.(envelope({ hasEmail: true })));

    expect(screen.queryByText(msg('emailExists'))).not.toBeInTheDocument();
    await user.type(passwordInput(), 'Secret#123');
    expect(submitButton()).toBeEnabled();
  });

  it('strips the spaces in the e-mail', async () => {
    const server = stubAuthServer();
    const user = userEvent.setup();
    renderAt(<RegisterPage />, '/register');
    await fillForm(user, 'new comer@example.com');
    await user.click(submitButton());
    await screen.findByRole('dialog', { name: t('auth.codeTitle') });
    expect(server.bodies('/elex/user/verifyCode')).toEqual([{ module: 1, email: 'newcomer@example.com' }]);
  });

  it('keeps a Unicode domain readable in the field and sends its punycode form', async () => {
    const server = stubAuthServer();
    const user = userEvent.setup();
    renderAt(<RegisterPage />, '/register');
    await fillForm(user, 'Reader@Bücher.de.');
    // Leaving the field tidies it (the check on blur) without turning the domain into xn--.
    expect(emailInput()).toHaveValue('reader@bücher.de');
    await user.click(submitButton());
    await screen.findByRole('dialog', { name: t('auth.codeTitle') });
    expect(server.bodies('/elex/user/verifyCode')).toEqual([{ module: 1, email: 'reader@xn--bcher-kva.de' }]);
  });
});

describe('/register: the invite code (issue 15)', () => {
  it('is refused before the code mail: the field is marked, no code dialog opens, the code goes with the request', async () => {
    const server = stubAuthServer({
      sendCode: async () => envelope({ field: 'code' }, State.Refused, msg('inviteCodeUnknown')),
    });
    const user = userEvent.setup();
    renderAt(<RegisterPage />, '/register?inviteCode=BADCODE1');
    await fillForm(user);
    await user.click(submitButton());
    const invite = screen.getByLabelText(t('auth.inviteCodeOptional'));
    await waitFor(() =>
      expect(invite).toHaveAccessibleDescription(expect.stringContaining(msg('inviteCodeUnknown'))),
    );
    expect(screen.queryByRole('dialog', { name: t('auth.codeTitle') })).not.toBeInTheDocument();
    expect(server.bodies('/elex/user/verifyCode')).toEqual([
      expect.objectContaining({ module: 1, email: 'newcomer@example.com', code: 'BADCODE1' }),
    ]);
  });
});

describe('/register: the password rules, shown as the user types', () => {
  it('marks each rule met or not, and enables submit only when both are', async () => {
    stubAuthServer();
    const user = userEvent.setup();
    renderAt(<RegisterPage />, '/register');
    await user.type(emailInput(), 'newcomer@example.com');
    const rules = within(screen.getByRole('list'));
    const rule = (key: string) => rules.getByText(msg(key)).closest('li') as HTMLElement;
    const met = t('auth.ruleMet');
    const unmet = t('auth.ruleUnmet');

    expect(rule('passwordLength')).toHaveTextContent(unmet);
    expect(rule('passwordComposition')).toHaveTextContent(unmet);

    await user.type(passwordInput(), 'abcdefgh');
    expect(rule('passwordLength')).toHaveTextContent(met);
    expect(rule('passwordComposition')).toHaveTextContent(unmet);
    expect(submitButton()).toBeDisabled();

    await user.type(passwordInput(), '1!');
    expect(rule('passwordComposition')).toHaveTextContent(met);
    expect(submitButton()).toBeEnabled();

    await user.type(passwordInput(), 'toolongnow');
    expect(rule('passwordLength')).toHaveTextContent(unmet);
    expect(submitButton()).toBeDisabled();
  });
});

describe('/register: the agreement', () => {
  it('is ticked at first; unticked, the form is refused with the spec’s message', async () => {
    const server = stubAuthServer();
    const user = userEvent.setup();
    renderAt(<RegisterPage />, '/register');
    expect(agreement()).toBeChecked();
    await fillForm(user);
    await user.click(agreement());
    expect(agreement()).not.toBeChecked();
    await user.click(submitButton());

    expect(await screen.findByRole('alert')).toHaveTextContent(msg('agreementRequired'));
    expect(server.bodies('/elex/user/verifyCode')).toEqual([]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it.each([
    ['terms', 'Terms of use'],
    ['privacy', 'Privacy policy'],
  ])('opens the %s in a modal that its confirm button closes', async (document, name) => {
    stubAuthServer();
    const user = userEvent.setup();
    renderAt(<RegisterPage />, '/register');
    await user.click(screen.getByRole('button', { name }));

    const dialog = await screen.findByRole('dialog', { name: t(`legal.${document}.title`) });
    expect(within(dialog).getAllByRole('heading', { level: 3 }).length).toBeGreaterThan(0);
    await user.click(within(dialog).getByRole('button', { name: t('legal.confirm') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Reading the text does not untick the box it sits in.
    expect(agreement()).toBeChecked();
  });

  it('ticks the agreement again when the terms are confirmed', async () => {
    stubAuthServer();
    const user = userEvent.setup();
    renderAt(<RegisterPage />, '/register');
    await user.click(agreement());
    expect(await screen.findByRole('alert')).toHaveTextContent(msg('agreementRequired'));
    await user.click(screen.getByRole('button', { name: 'Terms of use' }));
    const dialog = await screen.findByRole('dialog', { name: t('legal.terms.title') });
    await user.click(within(dialog).getByRole('button', { name: t('legal.confirm') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(agreement()).toBeChecked();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('/register: invite and exclusive sign-up codes', () => {
  const inviteInput = () => screen.getByLabelText(t('auth.inviteCodeOptional'));

  it('takes the invite code from the inviteCode query', () => {
    stubAuthServer();
    window.localStorage.setItem('inviteCode', 'STORED01');
    renderAt(<RegisterPage />, '/register?inviteCode=K7Q2M9XA');
    expect(inviteInput()).toHaveValue('K7Q2M9XA');
  });

  it('takes the stored invite code when the address has none, and leaves it empty otherwise', () => {
    stubAuthServer();
    window.localStorage.setItem('inviteCode', 'STORED01');
    const first = renderAt(<RegisterPage />, '/register');
    expect(inviteInput()).toHaveValue('STORED01');
    first.unmount();
    window.localStorage.removeItem('inviteCode');
    renderAt(<RegisterPage />, '/register');
    expect(inviteInput()).toHaveValue('');
  });

  it('shows the encr code read-only with its promise of 1000 XME energy and 100 points', () => {
    stubAuthServer();
    renderAt(<RegisterPage />, '/register?encr=PROMO2026');
    const encr = screen.getByLabelText(t('auth.encrCode'));
    expect(encr).toHaveValue('PROMO2026');
    expect(encr).toHaveAttribute('readonly');
    expect(encr).toHaveAccessibleDescription('Exclusive sign-up: 1000 XME energy and 100 points');
  });

  it('shows the stored encr code, and no encr field without one', () => {
    stubAuthServer();
    window.localStorage.setItem('encr', 'STOREDPROMO');
    const first = renderAt(<RegisterPage />, '/register');
    expect(screen.getByLabelText(t('auth.encrCode'))).toHaveValue('STOREDPROMO');
    first.unmount();
    window.localStorage.removeItem('encr');
    renderAt(<RegisterPage />, '/register');
    expect(screen.queryByLabelText(t('auth.encrCode'))).not.toBeInTheDocument();
  });
});

describe('/register: an exclusive sign-up code the server refuses (issue 11)', () => {
  const UNKNOWN = 'This exclusive sign-up code does not exist. You can register without it.';
  const USED_UP = 'This exclusive sign-up code has reached its sign-up limit. You can register without it.';
  const refused = (reason: string, message: string) =>
    envelope({ encrRefused: reason }, State.Refused, message);
  const encrInput = () => screen.queryByLabelText(t('auth.encrCode'));
  const removeButton = () => screen.getByRole('button', { name: t('auth.encrRemove') });

  async function confirmCode(user: ReturnType<typeof userEvent.setup>) {
    const dialog = await screen.findByRole('dialog', { name: t('auth.codeTitle') });
    await user.click(within(dialog).getAllByRole('textbox')[0] as HTMLElement);
    await user.keyboard(GOOD_CODE);
    await user.click(within(dialog).getByRole('button', { name: t('common.confirm') }));
  }

  it('marks an unknown code on load, and the visitor registers without it', async () => {
    const server = stubAuthServer({ checkEncr: () => refused('unknown', UNKNOWN) });
    window.localStorage.setItem('encr', 'BOGUS777');
    const user = userEvent.setup();
    const { router } = renderRoutes(
      [
        { path: '/register', element: <RegisterPage /> },
        { path: '/', element: <h1>home page</h1> },
      ],
      '/register?encr=BOGUS777&inviteCode=K7Q2M9XA',
    );
    expect(server.bodies('/elex/user/checkEncr')).toEqual([{ encr: 'BOGUS777' }]);
    await waitFor(() => expect(encrInput()).toHaveAccessibleDescription(UNKNOWN));
    expect(encrInput()).toHaveAttribute('aria-invalid', 'true');
    expect(encrInput()).toHaveAttribute('readonly');
    // The promise of the bonus is not made for a code that will not pay it.
    expect(screen.queryByText(/1000 XME energy/)).not.toBeInTheDocument();
    await fillForm(user);
    expect(submitButton()).toBeDisabled();

    await user.click(removeButton());
    expect(encrInput()).not.toBeInTheDocument();
    expect(window.localStorage.getItem('encr')).toBeNull();
    expect(new URLSearchParams(router.state.location.search).get('encr')).toBeNull();
    expect(new URLSearchParams(router.state.location.search).get('inviteCode')).toBe('K7Q2M9XA');
    expect(emailInput()).toHaveFocus();

    await user.click(submitButton());
    await confirmCode(user);
    expect(await screen.findByText(msg('welcome'))).toBeInTheDocument();
    expect(server.bodies('/elex/user/verifyCode')).toEqual([
      { module: 1, email: 'newcomer@example.com', code: 'K7Q2M9XA' },
    ]);
    expect(server.bodies('/elex/user/register')).toEqual([
      {
        email: 'newcomer@example.com',
        passwd: 'Secret#123',
        code: 'K7Q2M9XA',
        authcode: GOOD_CODE,
        marketingConsent: false,
      },
    ]);
  });

  it('sends the code with the code request; a refusal there marks the field and opens no dialog', async () => {
    const server = stubAuthServer({
      sendCode: (body) => (body.encr ? refused('usedUp', USED_UP) : envelope({ resendAfterSeconds: 60 })),
    });
    const user = userEvent.setup();
    renderAt(<RegisterPage />, '/register?encr=SPRING-PROMO');
    await fillForm(user);
    await user.click(submitButton());

    expect(server.bodies('/elex/user/verifyCode')).toEqual([
      { module: 1, email: 'newcomer@example.com', encr: 'SPRING-PROMO' },
    ]);
    await waitFor(() => expect(encrInput()).toHaveAccessibleDescription(USED_UP));
    // The reason shows as a toast too, where every refused code request shows it.
    expect(screen.getAllByText(USED_UP).length).toBeGreaterThanOrEqual(2);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(submitButton()).toBeDisabled();

    await user.click(removeButton());
    await user.click(submitButton());
    expect(await screen.findByRole('dialog', { name: t('auth.codeTitle') })).toBeInTheDocument();
    expect(server.bodies('/elex/user/verifyCode')[1]).toEqual({ module: 1, email: 'newcomer@example.com' });
  });

  it('goes back to the form with the field marked when the code was used up after the mail', async () => {
    const server = stubAuthServer({
      register: (body) =>
        body.encr ? refused('usedUp', USED_UP) : envelope({ token: 'issued-session-token' }),
    });
    const user = userEvent.setup();
    renderAt(<RegisterPage />, '/register?encr=SPRING-PROMO');
    await fillForm(user);
    await user.click(submitButton());
    await confirmCode(user);

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(encrInput()).toHaveAccessibleDescription(USED_UP);
    expect(server.bodies('/elex/user/register')).toHaveLength(1);
    expect(screen.queryByText(msg('welcome'))).not.toBeInTheDocument();
    expect(server.tracked()).toEqual([
      { event: 'Register_Error', page: '/register', time: expect.any(Number) },
    ]);
  });

  it('keeps a code the check could not reach: the code request checks it again', async () => {
    stubAuthServer({ checkEncr: () => envelope(null, 1500, 'Error', 500) });
    renderAt(<RegisterPage />, '/register?encr=SPRING-PROMO');
    await waitFor(() =>
      expect(encrInput()).toHaveAccessibleDescription('Exclusive sign-up: 1000 XME energy and 100 points'),
    );
    expect(encrInput()).not.toHaveAttribute('aria-invalid');
  });
});

describe('/register: registering (spec section 4)', () => {
  it('sends the codes and the marketing choice, stores the token and goes to / after 1 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = stubAuthServer();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { router } = renderRoutes(
      [
        { path: '/register', element: <RegisterPage /> },
        { path: '/', element: <h1>home page</h1> },
      ],
      '/register?inviteCode=K7Q2M9XA&encr=PROMO2026',
    );
    await fillForm(user);
    await user.click(screen.getByRole('checkbox', { name: t('auth.marketingConsent') }));
    await user.click(submitButton());
    const dialog = await screen.findByRole('dialog', { name: t('auth.codeTitle') });
    await user.click(within(dialog).getAllByRole('textbox')[0] as HTMLElement);
    await user.keyboard(GOOD_CODE);
    await user.click(within(dialog).getByRole('button', { name: t('common.confirm') }));

    expect(await screen.findByText(msg('welcome'))).toBeInTheDocument();
    expect(server.bodies('/elex/user/register')).toEqual([
      {
        email: 'newcomer@example.com',
        passwd: 'Secret#123',
        code: 'K7Q2M9XA',
        authcode: GOOD_CODE,
        encr: 'PROMO2026',
        marketingConsent: true,
      },
    ]);
    expect(server.tracked()).toEqual([
      { event: 'Register_success', page: '/register', time: expect.any(Number) },
    ]);
    act(() => {
      vi.advanceTimersByTime(900);
    });
    expect(router.state.location.pathname).toBe('/register');
    expect(window.localStorage.getItem('token')).toBeNull();
    act(() => {
      vi.advanceTimersByTime(100);
    });
    expect(router.state.location.pathname).toBe('/');
    expect(window.localStorage.getItem('token')).toBe(ISSUED_TOKEN);
  });

  it('sends marketing consent false and no optional codes when none were given', async () => {
    const server = stubAuthServer({ register: () => envelope(null, 1002, 'Invalid verification code') });
    const user = userEvent.setup();
    renderAt(<RegisterPage />, '/register');
    await fillForm(user);
    await user.click(submitButton());
    const dialog = await screen.findByRole('dialog', { name: t('auth.codeTitle') });
    await user.click(within(dialog).getAllByRole('textbox')[0] as HTMLElement);
    await user.keyboard('654321');
    await user.click(within(dialog).getByRole('button', { name: t('common.confirm') }));

    expect(await screen.findByText('Invalid verification code')).toBeInTheDocument();
    expect(server.bodies('/elex/user/register')).toEqual([
      { email: 'newcomer@example.com', passwd: 'Secret#123', authcode: '654321', marketingConsent: false },
    ]);
    expect(server.tracked()).toEqual([
      { event: 'Register_Error', page: '/register', time: expect.any(Number) },
    ]);
    expect(dialog).toBeInTheDocument();
    expect(window.localStorage.getItem('token')).toBeNull();
  });
});

describe('/register: links and the code dialog', () => {
  it('keeps redirect and the other query values on its log-in link', () => {
    stubAuthServer();
    renderAt(<RegisterPage />, '/register?redirect=%2Fwithdrawal&channel=x');
    const link = screen.getByRole('link', { name: t('nav.login') });
    const target = new URL(link.getAttribute('href') ?? '', 'http://localhost');
    expect(target.pathname).toBe('/login');
    expect(target.searchParams.get('redirect')).toBe('/withdrawal');
    expect(target.searchParams.get('channel')).toBe('x');
  });

  it('links to /login without a query when it has none', () => {
    stubAuthServer();
    renderAt(<RegisterPage />, '/register');
    expect(screen.getByRole('link', { name: t('nav.login') })).toHaveAttribute('href', '/login');
  });

  it('opens the code dialog with the seconds left when a code was sent under a minute ago', async () => {
    stubAuthServer({ coolDownSeconds: 30 });
    const user = userEvent.setup();
    renderAt(<RegisterPage />, '/register');
    await fillForm(user);
    await user.click(submitButton());
    const dialog = await screen.findByRole('dialog', { name: t('auth.codeTitle') });
    expect(within(dialog).getByText(t('auth.codeCountdown', { time: '00:30' }))).toBeInTheDocument();
    await expectCoolDownNote(30);
  });
});
