import { describe, expect, it } from 'vitest';
import { isMenuItemActive, MENU, visibleMenu } from './menu';

const keys = (isLoggedIn: boolean) => visibleMenu(isLoggedIn).map((item) => item.key);

describe('menu (spec section 2: top bar and tab bar)', () => {
  it('shows a visitor home, exchange, calculator, serviceIntro, login, register in that order', () => {
    expect(keys(false)).toEqual(['home', 'exchange', 'calculator', 'serviceIntro', 'login', 'register']);
  });

  it('shows a member my page instead of login and register', () => {
    expect(keys(true)).toEqual(['home', 'exchange', 'calculator', 'serviceIntro', 'mypage']);
    expect(keys(true)).not.toContain('login');
    expect(keys(true)).not.toContain('register');
  });

  it('points each entry at its route', () => {
    expect(Object.fromEntries(MENU.map((item) => [item.key, item.path]))).toEqual({
      home: '/',
      exchange: '/exchange',
      calculator: '/calculator',
      serviceIntro: '/serviceIntro',
      mypage: '/mypage',
      login: '/login',
      register: '/register',
    });
  });

  it('marks home active only on the root path', () => {
    expect(isMenuItemActive('/', '/')).toBe(true);
    expect(isMenuItemActive('/', '/exchange')).toBe(false);
    expect(isMenuItemActive('/', '/mypage/point')).toBe(false);
  });

  it('marks an entry active on its path and on paths that start with it', () => {
    expect(isMenuItemActive('/exchange', '/exchange')).toBe(true);
    // spec: "equals its path or starts with it" — so the detail page keeps the exchanges tab lit.
    expect(isMenuItemActive('/exchange', '/exchangeDetail')).toBe(true);
    expect(isMenuItemActive('/mypage', '/mypage/point')).toBe(true);
    expect(isMenuItemActive('/mypage', '/mypage')).toBe(true);
  });

  it('does not mark unrelated entries active', () => {
    expect(isMenuItemActive('/exchange', '/calculator')).toBe(false);
    expect(isMenuItemActive('/calculator', '/')).toBe(false);
    expect(isMenuItemActive('/mypage', '/login')).toBe(false);
  });
});
