import { describe, expect, it } from 'vitest';
import { LOCALES } from './locales.js';
import { isMessageKey, MESSAGES, translate } from './messages.js';

const placeholdersOf = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

describe('message catalogues', () => {
  const englishKeys = Object.keys(MESSAGES.en).sort();

  it.each(LOCALES)('%s has exactly the English keys', (locale) => {
    expect(Object.keys(MESSAGES[locale]).sort()).toEqual(englishKeys);
  });

  it.each(LOCALES)('%s has no empty message', (locale) => {
    const empty = Object.entries(MESSAGES[locale]).filter(([, text]) => text.trim() === '');
    expect(empty).toEqual([]);
  });

  it.each(LOCALES)('%s uses the same {{placeholders}} as English in every message', (locale) => {
    const mismatched = englishKeys.filter((key) => {
      if (!isMessageKey(key)) return true;
      return placeholdersOf(MESSAGES[locale][key]).join() !== placeholdersOf(MESSAGES.en[key]).join();
    });
    expect(mismatched).toEqual([]);
  });

  it.each(['zh', 'ko'] as const)('%s translates every message that has words', (locale) => {
    const untranslated = englishKeys.filter((key) => {
      if (!isMessageKey(key)) return true;
      const words = MESSAGES.en[key].replace(/\{\{\w+\}\}/g, '');
      return /[A-Za-z]/.test(words) && MESSAGES[locale][key] === MESSAGES.en[key];
    });
    expect(untranslated).toEqual([]);
  });

  it('keeps the spec wording of the English messages the client shows as they are', () => {
    expect(MESSAGES.en.error).toBe('Error');
    expect(MESSAGES.en.networkAnomaly).toBe('Network anomaly');
    expect(MESSAGES.en.sessionExpired).toBe('Session expired, please log in again');
    expect(MESSAGES.en.walletAddressInvalid).toBe('Invalid wallet address format');
    expect(MESSAGES.en.passwordLength).toBe('Please enter between 8 - 16 characters.');
    expect(MESSAGES.en.passwordComposition).toBe(
      'At least one number and special character must be included.',
    );
    expect(MESSAGES.en.codeIncomplete).toBe('verification code error');
    expect(MESSAGES.en.codeInvalid).toBe('Invalid verification code');
  });
});

describe('translate', () => {
  it('fills placeholders in each language', () => {
    expect(translate('en', 'waitSeconds', { seconds: 42 })).toBe(
      'Please wait 42 seconds before requesting another code',
    );
    expect(translate('zh', 'waitSeconds', { seconds: 42 })).toBe('请等待 42 秒后再获取验证码');
    expect(translate('ko', 'waitSeconds', { seconds: 42 })).toBe('42초 후에 인증 코드를 다시 요청해 주세요');
  });

  it('fills several placeholders', () => {
    expect(translate('en', 'invalidField', { field: 'email', reason: 'invalid value' })).toBe(
      'email: invalid value',
    );
  });

  it('never shows a raw {{placeholder}} to the user when a value is missing', () => {
    expect(translate('en', 'waitSeconds')).not.toContain('{{');
  });

  it('answers in the requested language', () => {
    expect(translate('en', 'error')).toBe('Error');
    expect(translate('zh', 'error')).toBe('错误');
    expect(translate('ko', 'error')).toBe('오류');
  });
});
