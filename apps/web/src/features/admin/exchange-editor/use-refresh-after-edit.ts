import { useQueryClient } from '@tanstack/react-query';
import { refreshExchangeDictionary } from '../../../shared/exchanges/exchange-dictionary';
import { exchangeListQuery } from '../../../shared/exchanges/exchange-list-query';
import { EXCHANGE_DETAIL_KEY } from '../../../shared/queries/get-exchange-detail';
import { exchangeIndexQuery } from '../../../shared/queries/get-exchange-index';
import { catalogQuery } from '../api/get-catalog';

/** What every save of the editor calls afterwards: reloads the catalog and what the public pages hold. */
export function useRefreshAfterEdit() {
  const client = useQueryClient();
  // After any save: the editor reloads the catalog, and the public pages drop what they hold, so the
  // exchange dictionary (pickers, /exchange, the calculator), the home index and the detail pages show
  // the edit without a reload. The server dropped its own catalog cache with the write.
  return async () => {
    // A failed reload is logged by the list getters; the list query below then answers an empty list.
    void refreshExchangeDictionary().catch(() => undefined);
    await Promise.all([
      client.invalidateQueries({ queryKey: catalogQuery.queryKey }),
      client.invalidateQueries({ queryKey: exchangeListQuery.queryKey }),
      client.invalidateQueries({ queryKey: exchangeIndexQuery.queryKey }),
      client.invalidateQueries({ queryKey: EXCHANGE_DETAIL_KEY }),
    ]);
  };
}
