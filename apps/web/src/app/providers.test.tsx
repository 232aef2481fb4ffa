import { render } from '@testing-library/react';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../shared/queries/query-scope';
import { storage } from '../shared/storage';
import { Providers } from './providers';

describe('the query cache and the session', () => {
  it('empties when the member logs in, logs out or the session changes in another tab', () => {
    const client = createQueryClient();
    render(
      <Providers client={client}>
        <p>page</p>
      </Providers>,
    );
    const cached = () => client.getQueryData(['me', 'profile']);

    client.setQueryData(['me', 'profile'], { email: 'first@example.com' });
    act(() => storage.setToken('first-member'));
    expect(cached()).toBeUndefined();

    client.setQueryData(['me', 'profile'], { email: 'first@example.com' });
    act(() => storage.setToken(null));
    expect(cached()).toBeUndefined();

    // Another tab logs in: this tab hears a storage event.
    client.setQueryData(['me', 'profile'], { email: 'first@example.com' });
    act(() => {
      window.localStorage.setItem('token', 'second-member');
      window.dispatchEvent(new StorageEvent('storage', { key: 'token', newValue: 'second-member' }));
    });
    expect(cached()).toBeUndefined();
  });

  it('keeps what it holds while the session stays the same', () => {
    const client = createQueryClient();
    storage.setToken('member');
    render(
      <Providers client={client}>
        <p>page</p>
      </Providers>,
    );
    client.setQueryData(['exchanges', 'index'], { allExchange: [] });
    act(() => storage.setToken('member'));
    expect(client.getQueryData(['exchanges', 'index'])).toEqual({ allExchange: [] });
  });
});
