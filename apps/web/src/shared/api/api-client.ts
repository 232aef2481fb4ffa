import { type Envelope, REDIRECT_DELAY_MS, State } from '@elex/contract';
import type { ENDPOINTS } from '@elex/contract/endpoints';
import type { z } from 'zod';
import { currentLocale, translate, whenStringsComplete } from '../i18n/i18n';
import { loginRedirectFor } from '../navigation/login-redirect';
import { storage } from '../storage';
import { toast } from '../ui/toast';

/**
 * Why a call failed: the server refused it (with its state, and the envelope's content, which is
 * null but for a few refusals such as the code cool-down), or HTTP or the network did.
 */
export class ApiError extends Error {
  constructor(
    readonly kind: 'refused' | 'session' | 'http' | 'network' | 'shape',
    message: string,
    readonly state?: number,
    readonly content: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The endpoint (endpoints.ts) whose path is P; never for a path outside the table. */
type EndpointOf<P extends string> = {
  [N in keyof typeof ENDPOINTS]: (typeof ENDPOINTS)[N]['path'] extends P ? N : never;
}[keyof typeof ENDPOINTS];

/**
 * What a call's body must be: the input of its request schema in the endpoint table, an empty object
 * for a call that reads none; anything for a path not in the table (tests, the upload helper).
 */
type BodyOf<P extends string> = [EndpointOf<P>] extends [never]
  ? unknown
  : (typeof ENDPOINTS)[EndpointOf<P>]['request'] extends infer S
    ? S extends z.ZodType
      ? z.input<S>
      : Record<string, never>
    : never;

export interface CallOptions<T> {
  /**
   * Checks the answer's content against the contract. A promise lets a page of the first paint load the
   * schema (and zod) beside the call instead of with its own download.
   */
  schema?: z.ZodType<T> | Promise<z.ZodType<T>>;
  /**
   * No toast on failure: background calls (the red dot), or pages that word the failure themselves; a
   * function: no toast for the failures it picks (a refusal the page handles without a word).
   */
  silent?: boolean | ((error: ApiError) => boolean);
  /** Let the request outlive the page (analytics sent as the visitor leaves). */
  keepalive?: boolean;
  method?: 'POST' | 'GET';
  signal?: AbortSignal;
}

/** How the client moves the app: the router's navigate, and where the app is now. */
export interface ApiNavigator {
  navigate(to: string): void;
  location(): { pathname: string; search: string };
}
let navigator: ApiNavigator = {
  navigate: (to) => window.location.assign(to),
  location: () => ({ pathname: window.location.pathname, search: window.location.search }),
};

/** The app shell registers the router so a session expiry navigates without a full reload. */
export function setApiNavigator(next: ApiNavigator) {
  navigator = next;
}

/** A server message in the page's language; pages that upload have their language complete already. */
const msgNow = (key: string) => translate(`msg:${key}`);

/** The same, once the messages are there: the first page's first call may fail before they arrive. */
async function msg(key: string): Promise<string> {
  await whenStringsComplete().catch(() => undefined);
  return msgNow(key);
}

function fail(error: ApiError, silent: CallOptions<unknown>['silent']): never {
  if (!(typeof silent === 'function' ? silent(error) : silent)) toast.error(error.message);
  throw error;
}

/**
 * The one way the web calls the server: adds `token` and `lang`, unwraps the envelope, shows the
 * server's message on a non-zero state, and handles session expiry, HTTP 500 and no response the way
 * spec section 8 says.
 */
export async function apiCall<T = unknown, P extends string = string>(
  path: P,
  body: BodyOf<P> = {} as BodyOf<P>,
  options: CallOptions<T> = {},
): Promise<T> {
  // A schema still loading is awaited after the answer; a failed load must not go unheard before that.
  if (options.schema instanceof Promise) options.schema.catch(() => undefined);
  const headers: Record<string, string> = { lang: currentLocale(), accept: 'application/json' };
  const token = storage.getToken();
  if (token) headers.token = token;
  const method = options.method ?? 'POST';
  if (method === 'POST') headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
      signal: options.signal,
      keepalive: options.keepalive === true,
    });
  } catch (cause) {
    if ((cause as Error).name === 'AbortError') throw cause;
    return fail(new ApiError('network', await msg('networkAnomaly')), options.silent);
  }

  if (response.status >= 500) return fail(new ApiError('http', await msg('error')), options.silent);

  let envelope: Envelope<unknown> | undefined;
  try {
    envelope = (await response.json()) as Envelope<unknown>;
  } catch {
    envelope = undefined;
  }
  if (!envelope || typeof envelope.state !== 'number') {
    return fail(new ApiError('http', await msg('error')), options.silent);
  }

  if (envelope.state === State.SessionExpired) {
    expireSession();
    throw new ApiError('session', await msg('sessionExpired'), envelope.state);
  }
  if (envelope.state !== State.Success || !response.ok) {
    return fail(
      new ApiError('refused', envelope.message || (await msg('error')), envelope.state, envelope.content),
      options.silent,
    );
  }
  if (!options.schema) return envelope.content as T;
  const parsed = (await options.schema).safeParse(envelope.content);
  if (!parsed.success) return fail(new ApiError('shape', await msg('error')), options.silent);
  return parsed.data;
}

let expiring = false;

/** True from a session's expiry until the member is sent to /login (the guard lets the page stay). */
export function isSessionEnding(): boolean {
  return expiring;
}

/**
 * spec: toast, drop the token, go to /login after 1.5 s (once, however many calls fail together),
 * with the page the member was on as `redirect`, so logging in again returns there.
 */
function expireSession() {
  const first = !expiring;
  expiring = true;
  storage.setToken(null);
  if (!first) return;
  void msg('sessionExpired').then((message) => toast.error(message));
  setTimeout(() => {
    expiring = false;
    const { pathname, search } = navigator.location();
    navigator.navigate(loginRedirectFor(pathname, search));
  }, REDIRECT_DELAY_MS.afterSessionExpired);
}

export interface UploadOptions<T> extends Pick<CallOptions<T>, 'signal'> {
  schema?: z.ZodType<T>;
  /** Bytes of the request body sent so far and in all (an upload's progress bar). */
  onUploadProgress?(sent: number, total: number): void;
}

/**
 * apiCall for a large body whose upload progress a page shows (the operator console's CSV imports):
 * XMLHttpRequest, because fetch reports no upload progress. Same headers, envelope, toasts and
 * session expiry as apiCall.
 */
export function apiUpload<T = unknown>(
  path: string,
  body: unknown,
  options: UploadOptions<T> = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', path);
    request.setRequestHeader('content-type', 'application/json');
    request.setRequestHeader('accept', 'application/json');
    request.setRequestHeader('lang', currentLocale());
    const token = storage.getToken();
    if (token) request.setRequestHeader('token', token);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onUploadProgress?.(event.loaded, event.total);
    };
    const settle = (work: () => T) => {
      try {
        resolve(work());
      } catch (error) {
        reject(error);
      }
    };
    request.onerror = () => settle(() => fail(new ApiError('network', msgNow('networkAnomaly')), false));
    request.onabort = () => reject(new DOMException('The upload was aborted', 'AbortError'));
    request.onload = () =>
      settle(() => {
        if (request.status >= 500) return fail(new ApiError('http', msgNow('error')), false);
        let envelope: Envelope<unknown> | undefined;
        try {
          envelope = JSON.parse(request.responseText) as Envelope<unknown>;
        } catch {
          envelope = undefined;
        }
        if (!envelope || typeof envelope.state !== 'number')
          return fail(new ApiError('http', msgNow('error')), false);
        if (envelope.state === State.SessionExpired) {
          expireSession();
          throw new ApiError('session', msgNow('sessionExpired'), envelope.state);
        }
        if (envelope.state !== State.Success || request.status >= 400) {
          return fail(new ApiError('refused', envelope.message || msgNow('error'), envelope.state), false);
        }
        if (!options.schema) return envelope.content as T;
        const parsed = options.schema.safeParse(envelope.content);
        if (!parsed.success) return fail(new ApiError('shape', msgNow('error')), false);
        return parsed.data;
      });
    options.signal?.addEventListener('abort', () => request.abort());
    request.send(JSON.stringify(body ?? {}));
  });
}
