import { useCatalog } from '../api/get-catalog';

/** The catalog's partners as the options of an exchange picker. */
export function ExchangeOptions() {
  const catalog = useCatalog();
  return catalog.data?.exchanges.map((exchange) => (
    <option key={exchange.platId} value={exchange.platId}>
      {exchange.name}
    </option>
  ));
}
