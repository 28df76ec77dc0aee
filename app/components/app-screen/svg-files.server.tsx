import { createHash } from "node:crypto";
import { renderToStaticMarkup } from "react-dom/server";
import { type Copy, copyFor } from "~/content/copy.server";
import { LOCALES, type Locale } from "~/shared/locale";
import { DriveScreen } from "./DriveScreen.server";
import { CROPPED_HEIGHT, HEIGHT, sideOf } from "./layout";
import { PhoneSvg } from "./PhoneSvg.server";
import { PALETTES, SCHEMES, type Scheme } from "./palette";
import { ReportScreen } from "./ReportScreen.server";

export const SCREENS = ["drive", "report"] as const;
export type Screen = (typeof SCREENS)[number];

/** The files: each screen whole, and the hero's drive cropped for phones (layout.ts, CROP). */
export const DRAWINGS = ["drive", "report", "drive-cropped"] as const;
export type Drawing = (typeof DRAWINGS)[number];

/** The screen a drawing shows, whose words it carries. */
export const SCREEN_OF: Record<Drawing, Screen> = {
  drive: "drive",
  report: "report",
  "drive-cropped": "drive",
};

/** A drawing's height in its own units (its width is always WIDTH). */
export const HEIGHT_OF: Record<Drawing, number> = {
  drive: HEIGHT,
  report: HEIGHT,
  "drive-cropped": CROPPED_HEIGHT,
};

/** Where the files are served (routes/app-screens.$file.ts). */
export const SCREENS_PATH = "/app-screens/";

/**
 * One drawn screen as a standalone SVG document, in a language and a colour scheme, with that
 * language's words unless a test gives others. React escapes the words as it writes them.
 */
export function renderScreenSvg(
  drawing: Drawing,
  locale: Locale,
  scheme: Scheme,
  appScreen: Copy["appScreen"] = copyFor(locale).appScreen,
): string {
  const ink = { side: sideOf(locale), colour: PALETTES[scheme] };
  const screen = SCREEN_OF[drawing];
  return renderToStaticMarkup(
    <PhoneSvg locale={locale} title={appScreen[screen].label} ink={ink} height={HEIGHT_OF[drawing]}>
      {screen === "drive" ? (
        <DriveScreen copy={appScreen.drive} ink={ink} cropped={drawing === "drive-cropped"} />
      ) : (
        <ReportScreen copy={appScreen.report} ink={ink} />
      )}
    </PhoneSvg>,
  );
}

type Files = { byName: Map<string, string>; nameOf: Map<string, string> };
let files: Files | undefined;

/**
 * Every screen in every language and scheme, rendered once, each named with a hash of its bytes
 * ("drive-ar-dark.1a2b3c4d5e.svg"): a changed drawing or word gets a new URL, so the old one can
 * be cached for a year.
 */
function allFiles(): Files {
  if (files) return files;
  const built: Files = { byName: new Map(), nameOf: new Map() };
  for (const drawing of DRAWINGS) {
    for (const locale of LOCALES) {
      for (const scheme of SCHEMES) {
        const body = renderScreenSvg(drawing, locale, scheme);
        const hash = createHash("sha256").update(body).digest("hex").slice(0, 10);
        const name = `${drawing}-${locale}-${scheme}.${hash}.svg`;
        built.byName.set(name, body);
        built.nameOf.set(`${drawing} ${locale} ${scheme}`, name);
      }
    }
  }
  files = built;
  return built;
}

/** The URL of a drawing's file, for the page's <picture>. */
export function screenSrc(drawing: Drawing, locale: Locale, scheme: Scheme): string {
  return `${SCREENS_PATH}${allFiles().nameOf.get(`${drawing} ${locale} ${scheme}`)}`;
}

/** A file's SVG by its name in the URL, or undefined for any name the site did not make. */
export function screenFile(name: string): string | undefined {
  return allFiles().byName.get(name);
}
