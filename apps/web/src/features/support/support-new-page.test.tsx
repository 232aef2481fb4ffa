import { SUPPORT } from '@elex/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearExchangeDictionary } from '../../shared/exchanges/exchange-dictionary';
import { envelope, logIn, renderRoutes } from '../../test/helpers';
import SupportNewPage from './support-new-page';
import SupportThreadPage from './support-thread-page';
import {
  ADDRESS,
  detail,
  PNG_BASE64,
  PNG_BYTES,
  stubSupportServer,
  summary,
} from './testing/stub-support-server';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);
const required = () => i18next.t('msg:requiredInformation');

function open(url = '/mypage/support/new') {
  // Files of any type reach the page, as a file chooser set to "all files" would give them.
  const user = userEvent.setup({ applyAccept: false });
  const result = renderRoutes(
    [
      { path: '/mypage/support/new', element: <SupportNewPage /> },
      { path: '/mypage/support/:id', element: <SupportThreadPage /> },
    ],
    url,
  );
  return { user, ...result };
}

const kindBox = () => screen.findByRole('combobox', { name: t('support.kind') });
const textBox = () => screen.getByRole('textbox', { name: t('support.text') });
const imageInput = () => screen.getByLabelText(t('support.image'));
const send = () => screen.getByRole('button', { name: t('support.send') });

beforeEach(() => {
  clearExchangeDictionary();
  logIn();
});

describe('/mypage/support/new', () => {
  it('needs a topic and a description before it sends anything', async () => {
    const server = stubSupportServer({});
    const { user } = open();
    await kindBox();
    await user.click(send());
    expect(await screen.findByRole('combobox', { name: t('support.kind') })).toHaveAccessibleDescription(
      required(),
    );
    expect(textBox()).toHaveAccessibleDescription(new RegExp(required()));
    expect(server.requests('/elex/support/create')).toEqual([]);
  });

  it('asks for the exchange and the UID for a request about a UID, and for none otherwise', async () => {
    const server = stubSupportServer({});
    const { user } = open();
    await user.selectOptions(await kindBox(), 'missingCashback');
    await user.type(textBox(), 'January 12 is missing');
    await user.click(send());

    const exchange = await screen.findByRole('combobox', { name: t('support.exchange') });
    await waitFor(() => expect(exchange).toHaveAccessibleDescription(required()));
    expect(screen.getByRole('textbox', { name: t('support.uid') })).toHaveAccessibleDescription(required());
    expect(screen.queryByRole('textbox', { name: t('support.address') })).toBeNull();
    expect(server.requests('/elex/support/create')).toEqual([]);

    // Another topic hides the UID fields and no longer needs them.
    await user.selectOptions(await kindBox(), 'account');
    expect(screen.queryByRole('combobox', { name: t('support.exchange') })).toBeNull();
  });

  it('needs the receiving address for a dispute, and says what it is for', async () => {
    const server = stubSupportServer({});
    const { user } = open('/mypage/support/new?kind=uidBoundByOther&platId=4&uid=770001');
    expect(await kindBox()).toHaveValue('uidBoundByOther');
    const address = screen.getByRole('textbox', { name: t('support.address') });
    expect(address).toHaveAccessibleDescription(t('support.addressHint'));
    await user.type(textBox(), 'This is my account');
    await user.click(send());
    await waitFor(() => expect(address).toHaveAttribute('aria-invalid', 'true'));
    expect(address).toHaveAccessibleDescription(new RegExp(required()));
    expect(server.requests('/elex/support/create')).toEqual([]);
  });

  it('refuses an image over 2 MB and a file that is not an image, with the contract’s messages', async () => {
    stubSupportServer({});
    const { user } = open();
    await kindBox();
    const big = new File([new Uint8Array(SUPPORT.maxImageBytes + 1)], 'big.png', { type: 'image/png' });
    await user.upload(imageInput(), big);
    expect(await screen.findByRole('alert')).toHaveTextContent(i18next.t('msg:supportImageTooLarge'));
    expect(screen.queryByRole('img')).toBeNull();

    await user.upload(imageInput(), new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(i18next.t('msg:supportImageType'));
    expect(imageInput()).toHaveAttribute('aria-invalid', 'true');
    expect(imageInput()).toHaveAttribute('accept', 'image/png,image/jpeg,image/webp');
  });

  it('sends a dispute with its screenshot as base64 and its type, then shows the thread', async () => {
    const server = stubSupportServer({
      create: () => envelope(summary({ id: '31', kind: 'uidBoundByOther' }), 0, 'Your request was sent.'),
      detail: () => envelope(detail({ id: '31', kind: 'uidBoundByOther', address: ADDRESS })),
    });
    const { user, router } = open('/mypage/support/new?kind=uidBoundByOther&platId=4&uid=770001');
    await kindBox();
    await user.type(screen.getByRole('textbox', { name: t('support.address') }), ADDRESS);
    await user.type(textBox(), 'This Bitget account is mine.');
    expect(screen.getByText(t('support.textCount', { length: '28', max: '4,000' }))).toBeInTheDocument();
    await user.upload(imageInput(), new File([PNG_BYTES], 'account.png', { type: 'image/png' }));
    expect(
      await screen.findByRole('img', { name: t('support.imagePreview', { name: 'account.png' }) }),
    ).toBeVisible();
    await user.click(send());

    await waitFor(() => expect(router.state.location.pathname).toBe('/mypage/support/31'));
    expect(server.requests('/elex/support/create')).toEqual([
      {
        kind: 'uidBoundByOther',
        platId: 4,
        uid: '770001',
        address: ADDRESS,
        text: 'This Bitget account is mine.',
        image: { contentType: 'image/png', data: PNG_BASE64 },
      },
    ]);
    expect(await screen.findByText(i18next.t('msg:supportRequestSent'))).toBeInTheDocument();
    expect(
      await screen.findByRole('heading', { level: 1, name: t('pages.supportThread.title', { id: '31' }) }),
    ).toBeVisible();
  });

  it('sends no image once it is removed, and no UID for a topic that is not about one', async () => {
    const server = stubSupportServer({
      create: () => envelope(summary({ id: '32', kind: 'account', platId: null, uid: null })),
      detail: () => envelope(detail({ id: '32', kind: 'account', platId: null, uid: null })),
    });
    const { user } = open('/mypage/support/new?platId=4&uid=770001');
    await user.selectOptions(await kindBox(), 'account');
    await user.type(textBox(), 'I cannot change my e-mail');
    await user.upload(imageInput(), new File([PNG_BYTES], 'account.png', { type: 'image/png' }));
    const preview = await screen.findByRole('figure');
    await user.click(within(preview).getByRole('button', { name: t('support.imageRemove') }));
    expect(screen.queryByRole('figure')).toBeNull();
    expect(imageInput()).toHaveFocus();
    await user.click(send());
    await waitFor(() =>
      expect(server.requests('/elex/support/create')).toEqual([
        { kind: 'account', text: 'I cannot change my e-mail' },
      ]),
    );
  });

  it('shows the server’s refusal and stays on the form', async () => {
    stubSupportServer({
      create: () => envelope(null, 1002, i18next.t('msg:supportTooManyOpen')),
    });
    const { user, router } = open();
    await user.selectOptions(await kindBox(), 'other');
    await user.type(textBox(), 'One more question');
    await user.click(send());
    expect(await screen.findByText(i18next.t('msg:supportTooManyOpen'))).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/mypage/support/new');
    expect(textBox()).toHaveValue('One more question');
  });
});
