import { HEIGHT, WIDTH } from "~/components/app-screen/layout";
import { type Screen, screenSrc } from "~/components/app-screen/svg-files.server";
import { useCopy } from "~/hooks/use-copy.server";
import { useLocale } from "~/hooks/use-site";

/** Below the first screen: fetched when it nears the viewport. React 18 knows no fetchPriority. */
const LAZY = { loading: "lazy" } as const;
/** The hero's: the first screen's largest picture, so fetched first (LCP). */
const EAGER = { fetchpriority: "high" } as const;

/**
 * The app on a phone, drawn (components/app-screen/) and fetched as an SVG image in the page's
 * language and colour scheme: the browser caches it, so the document does not carry the drawing.
 * The scheme is chosen here with <picture media>, not inside the SVG: an SVG's own <style> would
 * need a CSP exception. Width and height give the phone its 9:19.5 box before it loads; the
 * corners and shadow are the phone's (41.6 of 288 across, 41.6 of 624 down).
 */
export function AppScreen({
  screen,
  lazy = false,
  alt,
  className = "w-64 sm:w-72",
}: {
  screen: Screen;
  lazy?: boolean;
  /** Where words beside the picture already say most of it: what the picture adds. */
  alt?: string;
  className?: string;
}) {
  const locale = useLocale();
  const { appScreen } = useCopy();
  return (
    <picture>
      <source
        media="(prefers-color-scheme: dark)"
        srcSet={screenSrc(screen, locale, "dark")}
        width={WIDTH}
        height={HEIGHT}
      />
      <img
        src={screenSrc(screen, locale, "light")}
        alt={alt ?? appScreen[screen].label}
        width={WIDTH}
        height={HEIGHT}
        decoding="async"
        {...(lazy ? LAZY : EAGER)}
        className={`app-screen ${className}`}
      />
    </picture>
  );
}
