import { WIDTH } from "~/components/app-screen/layout";
import {
  type Drawing,
  HEIGHT_OF,
  type Screen,
  screenSrc,
} from "~/components/app-screen/svg-files.server";
import { useCopy } from "~/hooks/use-copy.server";
import { useLocale } from "~/hooks/use-site";

/** Below the first screen: fetched when it nears the viewport. React 18 knows no fetchPriority. */
const LAZY = { loading: "lazy" } as const;
/** The hero's: the first screen's largest picture, so fetched first (LCP). */
const EAGER = { fetchpriority: "high" } as const;
/** Where the hero stacks its picture under the words (below Tailwind's `lg`). */
const NARROW = "(max-width:63.99rem)";
const DARK = "(prefers-color-scheme: dark)";

/**
 * The app on a phone, drawn (components/app-screen/) and fetched as an SVG image in the page's
 * language and colour scheme: the browser caches it, so the document does not carry the drawing.
 * The scheme is chosen here with <picture media>, not inside the SVG: an SVG's own <style> would
 * need a CSP exception. Width and height give the phone its box before it loads (each <source>
 * its own); the corners and shadow are the phone's (41.6 of 288 across, 41.6 of 624 down).
 * `narrow` is drawn instead below 1024 px: the hero's drive cropped to its cards.
 */
export function AppScreen({
  screen,
  narrow,
  lazy = false,
  alt,
  className = "w-64 sm:w-72",
}: {
  screen: Screen;
  narrow?: Drawing;
  lazy?: boolean;
  /** Where words beside the picture already say most of it: what the picture adds. */
  alt?: string;
  className?: string;
}) {
  const locale = useLocale();
  const { appScreen } = useCopy();
  const source = (drawing: Drawing, scheme: "light" | "dark", media: string) => (
    <source
      media={media}
      srcSet={screenSrc(drawing, locale, scheme)}
      width={WIDTH}
      height={HEIGHT_OF[drawing]}
    />
  );
  return (
    <picture>
      {narrow ? source(narrow, "dark", `${NARROW} and ${DARK}`) : null}
      {narrow ? source(narrow, "light", NARROW) : null}
      {source(screen, "dark", DARK)}
      <img
        src={screenSrc(screen, locale, "light")}
        alt={alt ?? appScreen[screen].label}
        width={WIDTH}
        height={HEIGHT_OF[screen]}
        decoding="async"
        {...(lazy ? LAZY : EAGER)}
        className={`app-screen ${className}`}
      />
    </picture>
  );
}
