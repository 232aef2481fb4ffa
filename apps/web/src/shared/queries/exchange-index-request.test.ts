import { describe, expect, it, vi } from 'vitest';
import { envelope } from '../../test/helpers';
import { fetchExchangeIndex, requestExchangeIndexEarly } from './exchange-index-request';

const INDEX = { allExchange: [], fames: [], generalActivity: [], hotActivity: [] };

describe("the home's early request for the exchange index (issue 14)", () => {
  it('asks the server once for the first paint: the query takes the early answer, then asks anew', async () => {
    const fetchMock = vi.fn(async () => envelope(INDEX));
    vi.stubGlobal('fetch', fetchMock);

    requestExchangeIndexEarly();
    requestExchangeIndexEarly();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await expect(fetchExchangeIndex()).resolves.toEqual(INDEX);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    // A refetch (retry, or the home opened again later) is a new request.
    await fetchExchangeIndex();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('hands a failed early request to the query, which shows it; the retry asks again', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => envelope(null, 0, '', 500)),
    );
    requestExchangeIndexEarly();
    await expect(fetchExchangeIndex()).rejects.toThrow();

    const fetchMock = vi.fn(async () => envelope(INDEX));
    vi.stubGlobal('fetch', fetchMock);
    await expect(fetchExchangeIndex()).resolves.toEqual(INDEX);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
