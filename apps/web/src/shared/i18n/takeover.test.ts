import { describe, expect, it, vi } from 'vitest';

/**
 * i18next takes over from the first paint's strings without re-rendering what shows the same texts
 * (issue 14), but a language chosen before it took over must reach the screen when it does. A fresh
 * copy of the i18n modules: the test setup has started the shared one already.
 */
async function freshI18n() {
  vi.resetModules();
  return import('./i18n');
}

describe('i18next taking over from the first paint', () => {
  it('tells the screen nothing when it answers the same language', async () => {
    const i18n = await freshI18n();
    await i18n.initI18n('en');
    const before = i18n.appTranslator.current()('nav.home');
    const listener = vi.fn();
    i18n.appTranslator.subscribe(listener);
    await i18n.loadLocale('en');
    expect(listener).not.toHaveBeenCalled();
    expect(i18n.appTranslator.current()('nav.home')).toBe(before);
  });

  it('re-renders in the language chosen before it took over', async () => {
    const i18n = await freshI18n();
    await i18n.initI18n('en');
    const english = i18n.appTranslator.current()('nav.home');
    // Chosen at once: Chinese arrives before the English catalog that i18next takes over with.
    await i18n.changeLocale('zh');
    const listener = vi.fn();
    i18n.appTranslator.subscribe(listener);
    await i18n.loadLocale('en');
    expect(listener).toHaveBeenCalled();
    const chinese = i18n.appTranslator.current()('nav.home');
    expect(chinese).not.toBe(english);
    expect(i18n.currentLocale()).toBe('zh');
  });

  it('re-renders when something on screen read a key the first paint lacked', async () => {
    const i18n = await freshI18n();
    await i18n.initI18n('en');
    // A section no first paint carries: shown as the key until i18next answers.
    expect(i18n.appTranslator.current()('withdrawal.formTitle')).toBe('withdrawal.formTitle');
    const listener = vi.fn();
    i18n.appTranslator.subscribe(listener);
    await i18n.loadLocale('en');
    expect(listener).toHaveBeenCalled();
    expect(i18n.appTranslator.current()('withdrawal.formTitle')).not.toBe('withdrawal.formTitle');
  });
});
