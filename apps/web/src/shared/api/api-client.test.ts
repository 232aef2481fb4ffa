import { API, MESSAGES } from '@elex/contract';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { envelope } from '../../test/helpers';
import { storage } from '../storage';
import { toast } from '../ui/toast';
import { ApiError, apiCall, setApiNavigator } from './api-client';

vi.mock('../ui/toast', () => ({
  toast: { error: vi.fn(), success: vi.fn(), warning: vi.fn() },
}));

const fetchMock = vi.fn<typeof fetch>();

function lastRequest() {
  const call = fetchMock.mock.calls.at(-1);
  if (!call) throw new Error('fetch was not called');
  const [url, init] = call;
  return { url, init: init ?? {}, headers: new Headers(init?.headers) };
}

const toastedErrors = () => vi.mocked(toast.error).mock.calls.map(([message]) => message);

describe('apiCall (spec sections 4 and 8)', () => {
  beforeEach(() => {
    vi.mocked(toast.error).mockClear();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends the current language and the stored token', async () => {
    storage.setToken('tok-123');
    await i18next.changeLanguage('ko');
    fetchMock.mockResolvedValueOnce(envelope({}));

    await apiCall('/elex/user/info', { a: 1 });

    const { url, init, headers } = lastRequest();
    expect(url).toBe('/elex/user/info');
    expect(init.method).toBe('POST');
    expect(headers.get('lang')).toBe('ko');
    expect(headers.get('token')).toBe('tok-123');
    expect(JSON.parse(String(init.body))).toEqual({ a: 1 });
  });

  it('sends no token header for a visitor', async () => {
    fetchMock.mockResolvedValueOnce(envelope({}));
    await apiCall('/elex/exchange/list');
    expect(lastRequest().headers.has('token')).toBe(false);
    expect(lastRequest().headers.get('lang')).toBe('en');
  });

  it('gives the content of a state 0 answer and toasts nothing', async () => {
    fetchMock.mockResolvedValueOnce(envelope({ isSignToday: true }));
    await expect(apiCall('/elex/x')).resolves.toEqual({ isSignToday: true });
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('checks the content against a schema when given one', async () => {
    const schema = z.object({ n: z.number() });
    fetchMock.mockResolvedValueOnce(envelope({ n: 'not a number' }));
    await expect(apiCall('/elex/x', {}, { schema })).rejects.toBeInstanceOf(ApiError);
    expect(toastedErrors()).toEqual(['Error']);
  });

  it("shows the server's message on a refused call and rejects", async () => {
    fetchMock.mockResolvedValueOnce(envelope(null, 1002, 'Email already exists'));

    const error = await apiCall('/elex/user/register').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).state).toBe(1002);
    expect(toastedErrors()).toEqual(['Email already exists']);
  });

  it('on session expiry toasts, drops the token at once and goes to /login after 1.5 s', async () => {
    vi.useFakeTimers();
    const navigate = vi.fn();
    setApiNavigator({ navigate, location: () => ({ pathname: '/mypage/records', search: '?platId=4' }) });
    storage.setToken('old-token');
    fetchMock.mockResolvedValueOnce(envelope(null, -5000, 'whatever the server says'));

    const error = await apiCall('/elex/user/info').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(toastedErrors()).toEqual(['Session expired, please log in again']);
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(navigate).not.toHaveBeenCalled();

    vi.advanceTimersByTime(1499);
    expect(navigate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    // The page the member was on comes back after logging in again.
    const target = new URL(String(navigate.mock.calls[0]?.[0]), 'http://x');
    expect(target.pathname).toBe('/login');
    expect(target.searchParams.get('redirect')).toBe('/mypage/records?platId=4');
  });

  it('toasts and navigates once when several calls expire together', async () => {
    vi.useFakeTimers();
    const navigate = vi.fn();
    setApiNavigator({ navigate, location: () => ({ pathname: '/', search: '' }) });
    fetchMock.mockImplementation(async () => envelope(null, -5000));

    await Promise.allSettled([apiCall('/elex/a'), apiCall('/elex/b'), apiCall('/elex/c')]);
    vi.advanceTimersByTime(1500);

    expect(toastedErrors()).toEqual(['Session expired, please log in again']);
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('shows the generic Error on HTTP 500', async () => {
    fetchMock.mockResolvedValueOnce(new Response('<html>oops</html>', { status: 500 }));
    await expect(apiCall('/elex/x')).rejects.toMatchObject({ kind: 'http' });
    expect(toastedErrors()).toEqual(['Error']);
  });

  it('shows Network anomaly when no answer comes', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(apiCall('/elex/x')).rejects.toMatchObject({ kind: 'network' });
    expect(toastedErrors()).toEqual(['Network anomaly']);
  });

  it('shows the message in the current language', async () => {
    await i18next.changeLanguage('zh');
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(apiCall('/elex/x')).rejects.toBeInstanceOf(ApiError);
    expect(toastedErrors()).toEqual([MESSAGES.zh.networkAnomaly]);
    expect(MESSAGES.zh.networkAnomaly).not.toBe('Network anomaly');
  });

  it('shows no toast for a silent call, whatever fails', async () => {
    fetchMock
      .mockResolvedValueOnce(envelope(null, 1002, 'refused'))
      .mockResolvedValueOnce(new Response('', { status: 500 }))
      .mockRejectedValueOnce(new TypeError('Failed to fetch'));

    for (let i = 0; i < 3; i += 1) {
      await expect(apiCall('/elex/x', {}, { silent: true })).rejects.toBeInstanceOf(ApiError);
    }
    expect(toast.error).not.toHaveBeenCalled();
  });
});

/**
 * Never called: the compiler (`npm run typecheck`, part of `npm test`) checks these lines. A call named
 * from the endpoint table takes the input of the request schema the server parses, so a body the
 * server would refuse does not compile.
 */
export function _bodiesTypedFromTheEndpointTable() {
  void apiCall(API.userLogin, { email: 'a@example.com', passwd: 'secret-1', authcode: '123456' });
  // @ts-expect-error a field the request schema does not have
  void apiCall(API.userLogin, { email: 'a@example.com', passwd: 'secret-1', authcode: '1', extra: 1 });
  // @ts-expect-error a required field missing
  void apiCall(API.userLogin, { email: 'a@example.com' });
  // @ts-expect-error a call that reads no body
  void apiCall(API.userMyInfo, { page: 1 });
}
