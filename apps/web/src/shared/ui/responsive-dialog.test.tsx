import { LAYOUT } from '@elex/contract';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { resizeTo } from '../../test/helpers';
import { ResponsiveDialog } from './responsive-dialog';

function FieldHarness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <ResponsiveDialog open={open} onOpenChange={setOpen} title="With fields">
        <p>Type the code</p>
        <input aria-label="First box" />
        <input aria-label="Second box" />
      </ResponsiveDialog>
    </>
  );
}

function Harness({ width }: { width?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <ResponsiveDialog open={open} onOpenChange={setOpen} title="Sample" {...(width ? { width } : {})}>
        <button type="button">Inside</button>
      </ResponsiveDialog>
    </>
  );
}

/** spec section 9: modals 80% wide up to 400 px; the language dialog 30%; drawers 50% of the screen. */
describe('ResponsiveDialog sizes and focus', () => {
  it('on desktop is a dialog 80% wide and at most 400 px', async () => {
    resizeTo(1280);
    render(<Harness />);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));

    const dialog = await screen.findByRole('dialog', { name: 'Sample' });
    expect(dialog.style.width).toBe(LAYOUT.modalWidth);
    expect(dialog.style.maxWidth).toBe(`${LAYOUT.modalMaxWidthPx}px`);
  });

  it('takes the width it is given (the language dialog passes 30%)', async () => {
    resizeTo(1280);
    render(<Harness width={LAYOUT.languageDialogWidth} />);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));

    expect((await screen.findByRole('dialog', { name: 'Sample' })).style.width).toBe('30%');
  });

  it('on mobile is a bottom drawer at least half the screen tall', async () => {
    resizeTo(390);
    render(<Harness />);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));

    const drawer = await screen.findByRole('dialog', { name: 'Sample' });
    expect(drawer.style.minHeight).toBe(LAYOUT.drawerSize);
    expect(drawer.style.width).toBe('');
  });

  it.each([
    ['desktop', 1280],
    ['mobile', 390],
  ])('%s: keeps focus inside while open and gives it back to the opener on Escape', async (_, width) => {
    resizeTo(width);
    const user = userEvent.setup();
    render(<Harness />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);

    const dialog = await screen.findByRole('dialog', { name: 'Sample' });
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    await user.tab();
    await user.tab();
    await user.tab();
    expect(dialog).toContainElement(document.activeElement as HTMLElement);

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(opener).toHaveFocus();
  });

  it.each([
    ['desktop', 1280],
    ['mobile', 390],
  ])('%s: opens with focus on its first field, not on the close button', async (_, width) => {
    resizeTo(width);
    const user = userEvent.setup();
    render(<FieldHarness />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await screen.findByRole('dialog', { name: 'With fields' });
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'First box' })).toHaveFocus());
    await user.keyboard('7');
    expect(screen.getByRole('textbox', { name: 'First box' })).toHaveValue('7');
  });

  it('on mobile opens again after closing: the drawer, mounted at its first opening, stays', async () => {
    resizeTo(390);
    const user = userEvent.setup();
    render(<Harness />);
    const opener = screen.getByRole('button', { name: 'Open' });
    for (const time of [1, 2]) {
      await user.click(opener);
      const drawer = await screen.findByRole('dialog', { name: 'Sample' });
      expect(drawer, `opening ${time}`).toBeVisible();
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(opener).toHaveFocus();
    }
  });
});
