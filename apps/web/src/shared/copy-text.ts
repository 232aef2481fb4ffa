/**
 * Copies text to the clipboard: the Clipboard API where the page may use it, else the older
 * selection command. Answers whether it worked; the caller says 'Copied successfully' or
 * 'Copy failed, please manually copy.' (spec section 8).
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Denied (no focus, no permission): try the selection route below.
  }
  try {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const copied = document.execCommand?.('copy') ?? false;
    area.remove();
    return copied;
  } catch {
    return false;
  }
}
