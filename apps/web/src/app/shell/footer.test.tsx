import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../test/helpers';
import { type CommunityLink, communityLinks } from '../menu';
import { Footer } from './footer';

// The community addresses are build settings; each test decides which are configured.
const config = vi.hoisted(() => ({ links: undefined as CommunityLink[] | undefined }));
vi.mock('../menu', async (importOriginal) => {
  const original = await importOriginal<typeof import('../menu')>();
  return {
    ...original,
    get COMMUNITY_LINKS() {
      return config.links ?? original.COMMUNITY_LINKS;
    },
  };
});

const t = (key: string) => i18next.t(key);

beforeEach(() => {
  config.links = undefined;
});

describe('footer community links (spec section 2)', () => {
  it('guesses no address: with none configured every entry is unset', () => {
    expect(communityLinks({})).toEqual([
      { key: 'chat', href: undefined },
      { key: 'channel', href: undefined },
      { key: 'social', href: undefined },
    ]);
    expect(communityLinks({ VITE_DISCORD_URL: '  ', VITE_X_URL: '' }).every((link) => !link.href)).toBe(true);
  });

  it('takes each address from its build variable', () => {
    expect(
      communityLinks({
        VITE_DISCORD_URL: 'https://discord.gg/abc',
        VITE_TELEGRAM_URL: 'https://t.me/abc',
        VITE_X_URL: 'https://x.com/abc',
      }).map((link) => link.href),
    ).toEqual(['https://discord.gg/abc', 'https://t.me/abc', 'https://x.com/abc']);
  });

  it("says 'Coming soon' for an entry with no address instead of linking anywhere", async () => {
    const user = userEvent.setup();
    renderAt(<Footer />);
    const nav = screen.getByRole('navigation', { name: t('footer.community') });
    expect(within(nav).queryAllByRole('link')).toEqual([]);

    await user.click(within(nav).getByRole('button', { name: t('footer.chat') }));

    // The toast region loads at the first toast (a chunk of its own): slower than 1 s on a loaded machine;
    // and sonner shows a toast a frame after it is in the document.
    await waitFor(() => expect(screen.getByText(i18next.t('msg:comingSoon'))).toBeVisible(), {
      timeout: 5_000,
    });
    expect(within(nav).getByRole('button', { name: t('footer.channel') })).toBeInTheDocument();
    expect(within(nav).getByRole('button', { name: t('footer.social') })).toBeInTheDocument();
  });

  it('opens a configured address in a new window', () => {
    config.links = communityLinks({ VITE_TELEGRAM_URL: 'https://t.me/abc' });
    renderAt(<Footer />);
    const nav = screen.getByRole('navigation', { name: t('footer.community') });
    const link = within(nav).getByRole('link', { name: new RegExp(t('footer.channel')) });
    expect(link).toHaveAttribute('href', 'https://t.me/abc');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(within(nav).getByRole('button', { name: t('footer.chat') })).toBeInTheDocument();
  });
});
