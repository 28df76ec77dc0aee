/**
 * The colours of the drawn app screens, one set per colour scheme. Each scheme is its own SVG
 * file with the colours as presentation attributes (no <style>: an SVG opened on its own gets the
 * site's `default-src 'none'`, which refuses inline styles), and the page picks the file with
 * <picture media="(prefers-color-scheme: dark)">. Values are the page's Tailwind colours.
 */
export type Palette = {
  screen: string;
  text: string;
  muted: string;
  card: string;
  alertCard: string;
  alertNote: string;
  land: string;
  road: string;
  highway: string;
  roadLabel: string;
  sheet: string;
  accent: string;
  chip: string;
  chipText: string;
  bar: string;
  barNow: string;
  before: string;
  tipText: string;
};

export const SCHEMES = ["light", "dark"] as const;
export type Scheme = (typeof SCHEMES)[number];

/** The brand's fixed colours, the same in both schemes. */
export const BRAND = {
  black: "#000",
  white: "#fff",
  alert: "#dc2626",
  teal: "#14b8a6",
  tealDark: "#0f766e",
  sand: "#e0a43b",
  sand100: "#fbf4e6",
  slate300: "#cad5e2",
  navy: "#0b1f33",
} as const;

export const PALETTES: Record<Scheme, Palette> = {
  light: {
    screen: "#f1f5f9", // slate-100
    text: "#06121f", // ink-950
    muted: "#45556c", // slate-600
    card: "#fff",
    alertCard: "#0b1f33", // ink-900
    alertNote: BRAND.slate300,
    land: "#eef0e9",
    road: "#fff",
    highway: "#f3d9a4", // sand-300
    roadLabel: "#0b1f33",
    sheet: "#fff",
    accent: "#0f766e", // road-700
    chip: BRAND.sand100,
    chipText: "#0b1f33",
    bar: "#e2e8f0", // slate-200
    barNow: "#0d9488", // road-600
    before: "#62748e", // slate-500
    tipText: "#0b1f33",
  },
  dark: {
    screen: "#06121f",
    text: "#fff",
    muted: "#90a1b9", // slate-400
    card: "#0b1f33",
    alertCard: "#12304d", // ink-800
    alertNote: BRAND.slate300,
    land: "#0b1f33",
    road: "#12304d",
    highway: "#1d4468", // ink-700
    roadLabel: "#fff",
    sheet: "#06121f",
    accent: "#14b8a6", // road-500
    chip: "#12304d",
    chipText: "#f3d9a4",
    bar: "#1d4468",
    barNow: "#14b8a6",
    before: "#90a1b9",
    tipText: BRAND.sand100,
  },
};
