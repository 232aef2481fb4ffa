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
 * whitepaper's address at build time.
 */
export const WHITEPAPER_URL: string | undefined = import.meta.env.VITE_WHITEPAPER_URL || undefined;

export const COMMUNITY_LINKS = [
  { key: 'chat', href: import.meta.env.VITE_DISCORD_URL || 'https://discord.com/invite/elexcashback' },
  { key: 'channel', href: import.meta.env.VITE_TELEGRAM_URL || 'https://t.me/elexcashback' },
  { key: 'social', href: import.meta.env.VITE_X_URL || 'https://x.com/elexcashback' },
] as const;
