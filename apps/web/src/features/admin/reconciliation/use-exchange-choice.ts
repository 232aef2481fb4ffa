import { useSearchParams } from 'react-router';
import { useCatalog } from '../api/get-catalog';

/**
 * The exchange a roster or rebates view is about: `?platId=` when it names a partner, else the first
 * partner of the catalog. `show` rewrites the address with the changed filters (page 1 unless given).
 */
export function useReconciliationParams() {
  const catalog = useCatalog();
  const [params, setParams] = useSearchParams();
  const exchanges = catalog.data?.exchanges ?? [];
  const asked = Number(params.get('platId'));
  const platId = exchanges.some((exchange) => exchange.platId === asked) ? asked : exchanges[0]?.platId;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const show = (changes: Record<string, string | number | undefined>) => {
    const next = new URLSearchParams(params);
    next.delete('page');
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined || value === '' || (key === 'page' && value === 1)) next.delete(key);
      else next.set(key, String(value));
    }
    setParams(next);
  };
  return { exchanges, platId, page, params, show, catalogReady: catalog.isSuccess };
}
