import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope } from '../../test/helpers';
import { track } from './track';

/** The bodies of the analytics calls made so far. */
function stubTracking() {
  const fetchMock = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => envelope(null));
  vi.stubGlobal('fetch', fetchMock);
  return () =>
    fetchMock.mock.calls
      .filter(([url]) => String(url) === '/elex/track')
      .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

/** Moves the address as the router does on an in-app navigation (no reload). */
const goTo = (url: string) => window.history.pushState({}, '', url);

beforeEach(() => {
  window.sessionStorage.clear();
});

afterEach(() => {
  window.sessionStorage.clear();
  goTo('/');
});

describe('analytics channel (spec section 7)', () => {
  it('keeps the landing channel for the page views after in-app navigation', () => {
    const sent = stubTracking();
    goTo('/?channel=twitter');
    track('page_view', '/');
    goTo('/exchange');
    track('page_view', '/exchange');
    goTo('/calculator?step=2');
    track('page_view', '/calculator');

    expect(sent().map((body) => [body.page, body.channel])).toEqual([
      ['/', 'twitter'],
      ['/exchange', 'twitter'],
      ['/calculator', 'twitter'],
    ]);
  });

  it('sends no channel when the visit did not land with one (the server fills its default)', () => {
    const sent = stubTracking();
    goTo('/');
    track('page_view', '/');
    goTo('/exchange');
    track('page_view', '/exchange');
    expect(sent().map((body) => 'channel' in body)).toEqual([false, false]);
  });

  it('takes a channel named by a later address in the same tab', () => {
    const sent = stubTracking();
    goTo('/?channel=twitter');
    track('page_view', '/');
    goTo('/exchange?channel=telegram');
    track('page_view', '/exchange');
    goTo('/calculator');
    track('page_view', '/calculator');
    expect(sent().map((body) => body.channel)).toEqual(['twitter', 'telegram', 'telegram']);
  });

  it('remembers the channel of a visit that lands on an untracked page', () => {
    const sent = stubTracking();
    goTo('/test/introduce?channel=partner');
    track('page_view', '/test/introduce');
    goTo('/');
    track('page_view', '/');
    expect(sent().map((body) => [body.page, body.channel])).toEqual([['/', 'partner']]);
  });
});
