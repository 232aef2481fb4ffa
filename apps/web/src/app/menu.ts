import { PATHS } from '@elex/contract';

export interface MenuItem {
  /** Locale key under `nav.` */
  key: 'home' | 'exchange' | 'calculator' | 'serviceIntro' | 'mypage' | 'login' | 'register';
  path: string;
  show: 'always' | 'member' | 'visitor';
}

/** spec section 2: the top bar and tab bar menu, in order. */
export const MENU: readonly MenuItem[] = [
  { key: 'home', path: PATHS.home, show: 'always' },
  { key: 'exchange', path: PATHS.exchange, show: 'always' },
  { key: 'calculator', path: PATHS.calculator, show: 'always' },
  { key: 'serviceIntro', path: PATHS.serviceIntro, show: 'always' },
  { key: 'mypage', path: PATHS.myPage, show: 'member' },
  { key: 'login', path: PATHS.login, show: 'visitor' },
  { key: 'register', path: PATHS.register, show: 'visitor' },
];

export function visibleMenu(isLoggedIn: boolean): MenuItem[] {
  return MENU.filter((item) => item.show === 'always' || (item.show === 'member') === isLoggedIn);
}

/** spec: active when the path equals the item's path or starts with it, the root path excepted. */
export function isMenuItemActive(itemPath: string, pathname: string): boolean {
  if (itemPath === '/') return pathname === '/';
  return pathname.startsWith(itemPath);
}

/**
 * External links. An entry with no target shows 'Coming soon' (spec section 2); operators set the
 * addresses at build time (README, configuration). No address is guessed: a wrong community link
 * would send members to whoever holds that name.
 */
export const WHITEPAPER_URL: string | undefined = import.meta.env.VITE_WHITEPAPER_URL || undefined;

type CommunityKey = 'chat' | 'channel' | 'social';
export interface CommunityLink {
  /** Locale key under `footer.` */
  key: CommunityKey;
  /** Undefined when the address is not configured: the footer says 'Coming soon'. */
  href: string | undefined;
}

/** spec section 2: a chat community, a messaging channel and a social network, in that order. */
export function communityLinks(env: Record<string, unknown>): CommunityLink[] {
  const address = (name: string) => {
    const value = env[name];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  return [
    { key: 'chat', href: address('VITE_DISCORD_URL') },
    { key: 'channel', href: address('VITE_TELEGRAM_URL') },
    { key: 'social', href: address('VITE_X_URL') },
  ];
}

export const COMMUNITY_LINKS: readonly CommunityLink[] = communityLinks(import.meta.env);
