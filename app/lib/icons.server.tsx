import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  Copy,
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

/** The networks' marks: lucide draws no brands, and Tabler's outline marks match its strokes. */
const BRANDS = {
  "brand-facebook": "brand-facebook",
  "brand-linkedin": "brand-linkedin",
  "brand-whatsapp": "brand-whatsapp",
  "brand-x": "brand-x",
} as const satisfies Partial<Record<IconName, string>>;

type LucideName = Exclude<IconName, keyof typeof BRANDS>;

const ICONS: Record<LucideName, LucideIcon> = {
  close: X,
  copy: Copy,
  languages: Languages,
  mail: Mail,
  menu: Menu,
  refresh: RefreshCw,
  share: Share2,
  whatsapp: MessageCircle,
};

/** What is inside an <svg>…</svg>. */
function innerShapes(svg: string): string {
  return svg.slice(svg.indexOf(">") + 1, svg.lastIndexOf("</svg>")).trim();
}

/**
 * A Tabler outline icon's shapes, read from the package at run time (the server build does not
 * bundle it). Its first path is an invisible 24x24 frame, left out.
 */
function tablerShapes(name: string): string {
  const file = createRequire(import.meta.url).resolve(`@tabler/icons/outline/${name}.svg`);
  return innerShapes(readFileSync(file, "utf8"))
    .replace(/<path stroke="none" d="M0 0h24v24H0z" fill="none"\s*\/>/, "")
    .replace(/\s+/g, " ")
    .replace(/> </g, "><")
    .trim();
}

const symbol = (name: string, shapes: string) =>
  `<symbol id="${ICON_PREFIX}${name}" viewBox="0 0 24 24">${shapes}</symbol>`;

let drawn: string | undefined;

/**
 * Every icon of the interactive parts as an SVG <symbol>, drawn once: the shapes only, since the
 * <svg> that shows one (components/Icon.tsx) sets the stroke. Then the logo, which brings its
 * own colours (components/BrandMark.tsx).
 */
export function iconSymbols(): string {
  drawn ??= [
    ...Object.entries(ICONS).map(([name, Icon]) =>
      symbol(name, innerShapes(renderToStaticMarkup(<Icon />))),
    ),
    ...Object.entries(BRANDS).map(([name, file]) => symbol(name, tablerShapes(file))),
    `<symbol id="${BRAND_SYMBOL}" viewBox="0 0 32 32">${renderToStaticMarkup(<BrandDrawing />)}</symbol>`,
  ].join("");
  return drawn;
}
