import { act, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ScrollRegion } from './scroll-region';

/**
 * jsdom lays nothing out: each test says how wide the table is (scrollWidth) and how wide its region
 * (clientWidth), and plays the browser's ResizeObserver by calling the observed callback.
 */
const layout = { scrollWidth: 0, clientWidth: 0 };
let resized: (() => void) | undefined;

beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(() => layout.scrollWidth);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => layout.clientWidth);
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(callback: () => void) {
        resized = callback;
      }
      observe() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  resized = undefined;
});

const HINT = 'Scroll sideways to see more columns';

function renderTable() {
  render(
    <ScrollRegion label="Uploads">
      <table>
        <tbody>
          <tr>
            <td>roster.csv</td>
          </tr>
        </tbody>
      </table>
    </ScrollRegion>,
  );
  return screen.getByRole('region', { name: 'Uploads' });
}

describe('a console table that may scroll sideways', () => {
  it('says more columns are to the right when they do not fit, and ties the hint to the region', () => {
    Object.assign(layout, { scrollWidth: 1400, clientWidth: 900 });
    const region = renderTable();
    expect(screen.getByText(HINT)).toBeVisible();
    expect(region).toHaveAccessibleDescription(HINT);
    expect(region).toHaveAttribute('tabindex', '0');
    const frame = region.parentElement as HTMLElement;
    expect(frame).toHaveAttribute('data-hidden-right');
    expect(frame).not.toHaveAttribute('data-hidden-left');
  });

  it('shows nothing when every column fits', () => {
    Object.assign(layout, { scrollWidth: 900, clientWidth: 900 });
    const region = renderTable();
    expect(screen.queryByText(HINT)).not.toBeInTheDocument();
    expect(region).not.toHaveAccessibleDescription();
    expect(region.parentElement).not.toHaveAttribute('data-hidden-right');
    // Still a named region a keyboard can reach (axe: scrollable-region-focusable).
    expect(region).toHaveAttribute('tabindex', '0');
  });

  it('follows the scroll position: the shade moves to the side whose columns are out of view', () => {
    Object.assign(layout, { scrollWidth: 1400, clientWidth: 900 });
    const region = renderTable();
    const frame = region.parentElement as HTMLElement;
    region.scrollLeft = 250;
    fireEvent.scroll(region);
    expect(frame).toHaveAttribute('data-hidden-left');
    expect(frame).toHaveAttribute('data-hidden-right');
    region.scrollLeft = 500;
    fireEvent.scroll(region);
    expect(frame).toHaveAttribute('data-hidden-left');
    expect(frame).not.toHaveAttribute('data-hidden-right');
    // Still wider than its region: the hint stays.
    expect(screen.getByText(HINT)).toBeVisible();
  });

  it('drops the cue when the window grows until the table fits, and brings it back when it shrinks', () => {
    Object.assign(layout, { scrollWidth: 1400, clientWidth: 900 });
    renderTable();
    expect(screen.getByText(HINT)).toBeVisible();
    Object.assign(layout, { clientWidth: 1400 });
    act(() => resized?.());
    expect(screen.queryByText(HINT)).not.toBeInTheDocument();
    Object.assign(layout, { clientWidth: 700 });
    act(() => resized?.());
    expect(screen.getByText(HINT)).toBeVisible();
  });

  it('says it in the page language', async () => {
    Object.assign(layout, { scrollWidth: 1400, clientWidth: 900 });
    await i18next.changeLanguage('zh');
    const zh = renderTable();
    expect(zh).toHaveAccessibleDescription(i18next.t('admin.common.scrollHint'));
    expect(i18next.t('admin.common.scrollHint')).not.toBe(HINT);
    await i18next.changeLanguage('en');
  });

  it('starts the left shade after a pinned first column, so the column that stays is not covered', () => {
    Object.assign(layout, { scrollWidth: 1400, clientWidth: 900 });
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      return { width: this.tagName === 'TH' ? 172.4 : 0 } as DOMRect;
    });
    render(
      <ScrollRegion label="Summary" pinnedFirstColumn>
        <table>
          <thead>
            <tr>
              <th>Exchange</th>
              <th>Fees</th>
            </tr>
          </thead>
        </table>
      </ScrollRegion>,
    );
    const frame = screen.getByRole('region', { name: 'Summary' }).parentElement as HTMLElement;
    expect(frame).toHaveAttribute('data-pinned');
    expect(frame.style.getPropertyValue('--scroll-pinned')).toBe('172px');
    // A table without a pinned column keeps the shade at the region's edge.
    const plain = renderTable().parentElement as HTMLElement;
    expect(plain).not.toHaveAttribute('data-pinned');
    expect(plain.style.getPropertyValue('--scroll-pinned')).toBe('');
  });
});
