import { LOCALES, MESSAGES } from '@elex/contract';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { START_FAILURE_TEXT, StartFailure } from './start-failure';

describe('the start failure view', () => {
  it("says 'Network anomaly' in the visitor's language and reloads on request", async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    render(<StartFailure locale="ko" />);
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.ko.networkAnomaly);
    await userEvent.click(screen.getByRole('button', { name: MESSAGES.ko.tryAgain }));
    expect(reload).toHaveBeenCalledOnce();
    vi.unstubAllGlobals();
  });

  it.each(LOCALES)('words the failure in %s as the server messages do', (locale) => {
    expect(START_FAILURE_TEXT[locale]).toEqual({
      networkAnomaly: MESSAGES[locale].networkAnomaly,
      tryAgain: MESSAGES[locale].tryAgain,
    });
  });
});
