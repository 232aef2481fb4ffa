import { useSyncExternalStore } from 'react';
import { storage, subscribeToToken } from '../storage';

/** spec: logged in is decided by a token in local storage. */
export function useIsLoggedIn(): boolean {
  return useSyncExternalStore(subscribeToToken, () => storage.getToken() !== null);
}
