import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType, ReactNode } from 'react';
import { madeQueryClient, rememberQueryClient, useQueryClientIfLoaded } from './query-client-source';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // The API client already toasts failures; retrying a refused call would repeat the toast.
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

function appQueryClient(): QueryClient {
  let client = madeQueryClient();
  if (!client) {
    client = createQueryClient();
    rememberQueryClient(client);
  }
  return client;
}

/**
 * TanStack Query for what it wraps: every lazy page (app/lazy-page.ts) and each section of the home that
 * loads after the first paint. Not one provider around the whole app: it would have to be there at the
 * first render, with the library (issue 14); added later, it would remount the page under it.
 */
export function QueryScope({ children }: { children: ReactNode }) {
  const client = useQueryClientIfLoaded() ?? appQueryClient();
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

export function withQueryScope<Props extends object>(Component: ComponentType<Props>): ComponentType<Props> {
  return function Scoped(props: Props) {
    return (
      <QueryScope>
        <Component {...props} />
      </QueryScope>
    );
  };
}
