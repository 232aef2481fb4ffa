import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';

/**
 * TanStack Query loads after the first paint (issue 14), so the app's providers cannot make its client:
 * `QueryScope` (query-scope.tsx) makes it when the first page or section that asks for data loads. A
 * test gives each render a client of its own through this context instead.
 */
export const GivenQueryClient = createContext<QueryClient | undefined>(undefined);

let made: QueryClient | undefined;

/** The app's client once TanStack Query has loaded; undefined before. */
export function madeQueryClient(): QueryClient | undefined {
  return made;
}

export function rememberQueryClient(client: QueryClient) {
  made = client;
}

/** The client the tree below would use, if TanStack Query has loaded. */
export function useQueryClientIfLoaded(): QueryClient | undefined {
  return useContext(GivenQueryClient) ?? made;
}
