/**
 * What a share menu (components/ShareMenu.tsx) does beyond its links, the popup and the share
 * sheet, loaded when a visitor reaches for one (docs/decisions/009-code-on-intent.md): the Copy
 * link item, and closing like a menu should (Escape, a click outside). Plain DOM: see
 * browser/icon-markup.ts for why not React.
 */
import { track } from "~/analytics/queue.client";
import { iconMarkup } from "~/browser/icon-markup";
import { toast } from "~/browser/toast";

export type ShareMenuCopy = {
  /** The link to copy, tagged with its source. */
  url: string;
  /** Where the menu sits, for social_share. */
  placement: string;
  words: { copyLink: string; copied: string; copyFailed: string };
  /** The look of the menu's items. */
  itemClass: string;
};

const menus = new Set<HTMLDetailsElement>();

/** Shuts the menu; focus goes back to its button first when the visitor was in it. */
export function closeMenu(details: HTMLDetailsElement, returnFocus: boolean) {
  // Focus first, while the menu is still open: its tooltip stays shut (browser/tooltip.ts).
  if (returnFocus) (details.firstElementChild as HTMLElement | null)?.focus();
  details.open = false;
}

/** Copies the link, says so in a toast and reports it; a failure is said and logged. */
export async function copyLink(
  url: string,
  placement: string,
  words: { copied: string; copyFailed: string },
): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
  } catch (error) {
    console.error("Copy failed:", error);
    toast(words.copyFailed);
    return;
  }
  toast(words.copied);
  track("social_share", { method: "copy", placement });
}

function listen() {
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    for (const menu of menus) if (menu.open) closeMenu(menu, true);
  });
  document.addEventListener("click", (event) => {
    for (const menu of menus) {
      // A menu gone with its page (the landing page's, after a navigation) is let go.
      if (!menu.isConnected) menus.delete(menu);
      else if (!menu.contains(event.target as Node)) menu.open = false;
    }
  });
}

/**
 * From now on this menu closes on Escape and on a click outside it, and it offers Copy link
 * where the page may use the clipboard (never a dead button). Once per menu.
 */
export function enhanceMenu(details: HTMLDetailsElement, copy: ShareMenuCopy) {
  if (menus.has(details)) return;
  if (menus.size === 0) listen();
  menus.add(details);
  const list = details.querySelector("ul");
  if (!list || typeof navigator.clipboard?.writeText !== "function") return;
  const button = document.createElement("button");
  button.type = "button";
  button.className = `${copy.itemClass} cursor-pointer`;
  button.innerHTML = iconMarkup("copy", "size-5");
  button.append(copy.words.copyLink);
  button.addEventListener("click", () => {
    // The button is about to be hidden: focus goes back where the user started.
    closeMenu(details, true);
    void copyLink(copy.url, copy.placement, copy.words);
  });
  const item = document.createElement("li");
  item.append(button);
  list.append(item);
}
