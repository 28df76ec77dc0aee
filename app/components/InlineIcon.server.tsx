import type { LucideIcon } from "lucide-react";
import { renderToStaticMarkup } from "react-dom/server";

const shapes = new Map<LucideIcon, string>();

/** What lucide draws inside its <svg>, rendered once per icon on this server. */
function shapesOf(icon: LucideIcon): string {
  let inner = shapes.get(icon);
  if (inner === undefined) {
    const Drawn = icon;
    const svg = renderToStaticMarkup(<Drawn />);
    inner = svg.slice(svg.indexOf(">") + 1, svg.lastIndexOf("</svg>"));
    shapes.set(icon, inner);
  }
  return inner;
}

/**
 * A lucide icon that a static part shows once (a feature's, the footer's phone): drawn in place,
 * but with only a viewBox and the `icon` class (tailwind.css) where lucide writes eight
 * attributes, since the static parts ship in every document. Decoration, hidden from screen
 * readers; icons that repeat are in the sprite instead (components/Icon.tsx).
 */
export function InlineIcon({ icon, className }: { icon: LucideIcon; className: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={`icon ${className}`}
      // lucide's drawing, rendered on this server: nothing from the visitor is in it.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: see above
      dangerouslySetInnerHTML={{ __html: shapesOf(icon) }}
    />
  );
}
