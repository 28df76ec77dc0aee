import { createContext, type ReactNode } from "react";

/**
 * Parts of pages that never change once the server has rendered them: section copy, the phone
 * mockup, the footer. The browser keeps the server's markup and React never hydrates it, so
 * their components, copy and icons stay out of the JavaScript bundle. Their links still work
 * (they are plain links) and still report clicks (see analytics/link-clicks.ts).
 */
export const STATIC_PARTS = [
  "hero-intro",
  "hero-proof",
  "countdown-label",
  "countdown-notes",
  "phone-mockup",
  "landing-body",
  "get-started-intro",
  "get-started-ctas",
  "sticky-action",
  "footer",
  "menu-cta",
  "language-offer",
  "page-skeleton",
  "structured-data",
  "icon-sprite",
  "render-before-jumps",
] as const;
export type StaticPartName = (typeof STATIC_PARTS)[number];

/** What renders each part; provided only by the server (entry.server.tsx). */
export type StaticPartRenderers = Record<StaticPartName, () => ReactNode>;

export const StaticPartsContext = createContext<StaticPartRenderers | null>(null);

/** The attribute that marks a part's element in the document. */
export const PART_ATTRIBUTE = "data-static-part";

/** A part's markup in a parsed document, by name; what a document lacks is left out. */
export function partsIn(
  root: ParentNode,
  names: readonly StaticPartName[],
): Partial<Record<StaticPartName, string>> {
  const found: Partial<Record<StaticPartName, string>> = {};
  for (const name of names) {
    const element = root.querySelector(`[${PART_ATTRIBUTE}="${name}"]`);
    if (element) found[name] = element.innerHTML;
  }
  return found;
}
