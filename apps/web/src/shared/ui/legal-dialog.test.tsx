import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../test/helpers';
import { LegalDialog } from './legal-dialog';

const t = (key: string) => i18next.t(key);

beforeEach(() => {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: 1280 });
});

describe('terms and privacy dialog', () => {
  it.each(['terms', 'privacy'] as const)(
    '%s: a modal of the spec size (80% wide, at most 400 px) with a confirm button',
    async (document) => {
      const onClose = vi.fn();
      const onConfirm = vi.fn();
      const user = userEvent.setup();
      renderAt(<LegalDialog document={document} onClose={onClose} onConfirm={onConfirm} />);

      const dialog = await screen.findByRole('dialog', { name: t(`legal.${document}.title`) });
      expect(dialog.style.width).toBe('80%');
      expect(dialog.style.maxWidth).toBe('400px');

      await user.click(within(dialog).getByRole('button', { name: t('legal.confirm') }));
      expect(onConfirm).toHaveBeenCalledTimes(1);
      expect(onClose).toHaveBeenCalledTimes(1);
    },
  );
});
