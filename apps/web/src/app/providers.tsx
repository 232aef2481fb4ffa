import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { storage, subscribeToToken } from '../shared/storage';
import { Toaster } from '../shared/ui/toast';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // The API client already toasts failures; retrying a refused call would repeat the toast.
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

/**
 * Member data is cached under keys that do not name the member ('me', 'points' ...): whenever the
 * session changes (login, logout, expiry, or either in another tab) the cache is emptied, so nobody
 * sees the previous member's e-mail, balances or UIDs, even for a moment.
 */
function useClearCacheWhenSessionChanges(client: QueryClient) {
  useEffect(() => {
    let seen = storage.getToken();
    return subscribeToToken(() => {
      const now = storage.getToken();
      if (now === seen) return;
      seen = now;
      client.clear();
    });
  }, [client]);
}

export function Providers({ client, children }: { client: QueryClient; children: ReactNode }) {
  useClearCacheWhenSessionChanges(client);
  return (
    <QueryClientProvider client={client}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}
