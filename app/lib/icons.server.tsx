import {
  Languages,
  type LucideIcon,
  Mail,
  Menu,
  MessageCircle,
  RefreshCw,
  Share2,
  X,
} from "lucide-react";
import { renderToStaticMarkup } from "react-dom/server";
import { BrandDrawing } from "~/components/BrandDrawing.server";
import { BRAND_SYMBOL, ICON_PREFIX, type IconName } from "~/lib/icons";

const ICONS: Record<IconName, LucideIcon> = {
  close: X,
  languages: Languages,
  mail: Mail,
  menu: Menu,
  refresh: RefreshCw,
  share: Share2,
  whatsapp: MessageCircle,
};

let drawn: string | undefined;

/**
 * Every icon of the interactive parts as an SVG <symbol>, drawn once with lucide-react: the
 * shapes only, since the <svg> that shows one (components/Icon.tsx) sets the stroke. Then the
 * logo, which brings its own colours (components/BrandMark.tsx).
 */
export function iconSymbols(): string {
  drawn ??= `${Object.entries(ICONS)
    .map(([name, Icon]) => {
      const svg = renderToStaticMarkup(<Icon />);
      const shapes = svg.slice(svg.indexOf(">") + 1, svg.lastIndexOf("</svg>"));
      return `<symbol id="${ICON_PREFIX}${name}" viewBox="0 0 24 24">${shapes}</symbol>`;
    })
    .join("")}<symbol id="${BRAND_SYMBOL}" viewBox="0 0 32 32">${renderToStaticMarkup(
    <BrandDrawing />,
  )}</symbol>`;
  return drawn;
}
