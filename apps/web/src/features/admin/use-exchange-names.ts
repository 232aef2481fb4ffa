import { useCatalog } from './api/get-catalog';

/** Exchange names from the console's own catalog (fresh after an edit, unlike the cached dictionary). */
export function useExchangeNames(): (platId: number) => string {
  const catalog = useCatalog();
  return (platId) => catalog.data?.exchanges.find((entry) => entry.platId === platId)?.name ?? `#${platId}`;
}
