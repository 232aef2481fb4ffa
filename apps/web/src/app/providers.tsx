import type { QueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { GivenQueryClient, madeQueryClient } from '../shared/queries/query-client-source';
import { storage, subscribeToToken } from '../shared/storage';
import { Toaster } from '../shared/ui/toast';

/**
 * Member data is cached under keys that do not name the member ('me', 'points' ...): whenever the
 * session changes (login, logout, expiry, or either in another tab) the cache is emptied, so nobody
 * sees the previous member's e-mail, balances or UIDs, even for a moment.
 */
function useClearCacheWhenSessionChanges(client: QueryClient | undefined) {
  useEffect(() => {
    let seen = storage.getToken();
    return subscribeToToken(() => {
      const now = storage.getToken();
      if (now === seen) return;
      seen = now;
      // Before TanStack Query has loaded there is no cache to empty.
      (client ?? madeQueryClient())?.clear();
    });
  }, [client]);
}

/** The app's providers; `client` is for tests (the app makes its own, shared/queries/query-scope.tsx). */
export function Providers({ client, children }: { client?: QueryClient; children: ReactNode }) {
  useClearCacheWhenSessionChanges(client);
  return (
    <GivenQueryClient.Provider value={client}>
      {children}
      <Toaster />
    </GivenQueryClient.Provider>
  );
}
