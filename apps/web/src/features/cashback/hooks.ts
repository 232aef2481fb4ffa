import { useExchangeList } from '../../shared/exchanges/exchange-list-query';

/** Names exchanges by platId from the dictionary; an unknown id shows as its number. */
export function useExchangeName() {
  const exchanges = useExchangeList();
  return (platId: number) => exchanges.data?.find((entry) => entry.id === platId)?.name ?? `#${platId}`;
}
