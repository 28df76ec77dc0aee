import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  ArrowRight,
  Check,
  ChevronDown,
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
import { BRAND_SYMBOL, ICON_PREFIX, type IconName } from "~/shared/icons";

/**
 * The networks' marks: lucide draws no brands, simple-icons has dropped LinkedIn's, and Tabler's
 * outline marks match lucide's 24 px grid and 2 px strokes. Each is drawn in its brand colour,
 * chosen for at least 3:1 against the menus and buttons it sits on (white, slate-50/100; ink-900
 * and ink-800 in dark): WhatsApp's light green is 2:1 on white, so light mode takes its teal;
 * LinkedIn's blue is 2.9:1 on ink-900, so dark mode takes the lighter blue of LinkedIn's own dark
 * theme; X is black or white, the text's colour. The colour is set in the sprite, so the page's
 * script carries none; `[--mark:currentColor]` on the <svg> that shows one (a filled button)
 * gives it the text's colour instead.
 */
const BRANDS = {
  "brand-facebook": {
    file: "brand-facebook",
    colour: "text-[color:var(--mark,#1877f2)]",
  },
  "brand-linkedin": {
    file: "brand-linkedin",
    colour: "text-[color:var(--mark,#0a66c2)] dark:text-[color:var(--mark,#71b7fb)]",
  },
  "brand-twitter": { file: "brand-x", colour: "" },
  "brand-whatsapp": {
    file: "brand-whatsapp",
    colour: "text-[color:var(--mark,#128c7e)] dark:text-[color:var(--mark,#25d366)]",
  },
} as const satisfies Partial<Record<IconName, { file: string; colour: string }>>;

type LucideName = Exclude<IconName, keyof typeof BRANDS>;

const ICONS: Record<LucideName, LucideIcon> = {
  "arrow-right": ArrowRight,
  check: Check,
  "chevron-down": ChevronDown,
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
    ...Object.entries(BRANDS).map(([name, { file, colour }]) =>
      symbol(name, colour ? `<g class="${colour}">${tablerShapes(file)}</g>` : tablerShapes(file)),
    ),
    `<symbol id="${BRAND_SYMBOL}" viewBox="0 0 32 32">${renderToStaticMarkup(<BrandDrawing />)}</symbol>`,
  ].join("");
  return drawn;
}
