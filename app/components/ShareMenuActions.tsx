/**
 * What a share menu (components/ShareMenu.tsx) does beyond its links, the popup and the share
 * sheet, loaded when a visitor reaches for one (docs/decisions/009-code-on-intent.md): copying
 * the link, and closing like a menu should (Escape, a click outside).
 */
import type { ReactNode, RefObject } from "react";
import { track } from "~/browser/analytics.client";
import { toast } from "~/browser/toast";

const menus = new Set<HTMLDetailsElement>();
let listening = false;

/** Shuts the menu; focus goes back to its button first when the visitor was in it. */
export function closeMenu(details: HTMLDetailsElement, returnFocus: boolean) {
  // Focus first, while the menu is still open: its tooltip stays shut (components/Tooltip.tsx).
  if (returnFocus) (details.firstElementChild as HTMLElement | null)?.focus();
  details.open = false;
}

/** Closes this menu on Escape and on a click outside it, from now on. */
export function watchMenu(details: HTMLDetailsElement) {
  menus.add(details);
  if (listening) return;
  listening = true;
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

/**
 * The menu's Copy link item, where the page may use the clipboard: never a dead button. The
 * menu hands over its look and icon, so this file brings no module of the page's along.
 */
export function CopyLinkItem({
  menu,
  url,
  placement,
  words,
  className,
  icon,
}: {
  menu: RefObject<HTMLDetailsElement>;
  url: string;
  placement: string;
  words: { copyLink: string; copied: string; copyFailed: string };
  className: string;
  icon: ReactNode;
}) {
  if (typeof navigator.clipboard?.writeText !== "function") return null;
  const onClick = () => {
    // The button is about to be hidden: focus goes back where the user started.
    if (menu.current) closeMenu(menu.current, true);
    void copyLink(url, placement, words);
  };
  return (
    <li>
      <button type="button" onClick={onClick} className={className}>
        {icon}
        {words.copyLink}
      </button>
    </li>
  );
}
