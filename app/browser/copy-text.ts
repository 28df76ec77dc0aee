/**
 * Puts `text` on the clipboard: the Clipboard API where the page may use it, else the older
 * execCommand("copy") on a selection of `shown`, the element that shows the text (browsers
 * without the API, or a page not served over https). On failure the text is left selected, so
 * the visitor can copy it by hand.
 */
export async function copyText(text: string, shown: Element | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No API (undefined), or refused: try the selection instead.
  }
  const selection = window.getSelection();
  if (!shown || !selection) return false;
  selection.selectAllChildren(shown);
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  }
}
