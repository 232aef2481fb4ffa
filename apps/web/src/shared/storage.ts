/**
 * Client storage of spec section 3: token (login marker), encr, locale, and the invite code a visitor
 * arrived with. One module so every key is named once.
 */
const KEYS = { token: 'token', locale: 'locale', encr: 'encr', inviteCode: 'inviteCode' } as const;
type StorageKey = keyof typeof KEYS;

const TOKEN_EVENT = 'elex:token-changed';

function read(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(KEYS[key]);
  } catch {
    return null;
  }
}

function write(key: StorageKey, value: string | null) {
  try {
    if (value === null) window.localStorage.removeItem(KEYS[key]);
    else window.localStorage.setItem(KEYS[key], value);
  } catch {
    // Private mode or a full quota: the app still works for this page view.
  }
}

/** Whether the last session in this tab was ended by the member here (logout, account deletion). */
let endedByMember = false;

export const storage = {
  getToken: () => read('token'),
  /** `byMember`: the member ended the session here, so a member page goes home, not to /login. */
  setToken(token: string | null, options: { byMember?: boolean } = {}) {
    endedByMember = token === null && options.byMember === true;
    write('token', token);
    window.dispatchEvent(new Event(TOKEN_EVENT));
  },
  sessionEndedByMember: () => endedByMember,
  getLocale: () => read('locale'),
  setLocale: (locale: string) => write('locale', locale),
  getEncr: () => read('encr'),
  /** null forgets it: the visitor removed a code the server refused. */
  setEncr: (encr: string | null) => write('encr', encr),
  getInviteCode: () => read('inviteCode'),
  setInviteCode: (code: string) => write('inviteCode', code),
};

/** Lets the UI follow login and logout, in this tab and in others. */
export function subscribeToToken(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === KEYS.token) onChange();
  };
  window.addEventListener(TOKEN_EVENT, onChange);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(TOKEN_EVENT, onChange);
    window.removeEventListener('storage', onStorage);
  };
}
