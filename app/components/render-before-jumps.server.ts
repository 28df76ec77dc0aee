/**
 * Sections below the first screen are styled and laid out only as they come near the viewport
 * (`content-visibility: auto`, the `render-when-near` class in tailwind.css). Until then each one
 * stands in at an estimated height, which is fine for a visitor scrolling, but not for a jump to a
 * position worked out in one go: a smooth scroll to a section, or a restored scroll position, would
 * land wherever the estimates put it. So before any jump every section is rendered for real:
 * - a fragment navigation without JavaScript, or a page opened at a fragment: `:target` does it in
 *   the stylesheet;
 * - a click on a link to a fragment, a step back or forward, and a reload that restores a position:
 *   the flag this script sets on `<html>`, before the router or Remix's restorer scrolls.
 * The script is the app's own element, rendered just before <ScrollRestoration>
 * (docs/decisions/002-boot-script.md).
 */

/** The flag on `<html>` that renders every section (the stylesheet matches it). */
export const RENDER_ALL_ATTRIBUTE = "data-render-all";

/**
 * Where Remix's <ScrollRestoration> keeps positions in sessionStorage, keyed by history entry.
 * Not exported by Remix: tests/integration/boot.test.ts checks the installed Remix still uses it.
 */
export const REMIX_POSITIONS_KEY = "positions";

/** Runs while the page is parsed, before Remix's restorer, which scrolls to a stored position. */
export const RENDER_BEFORE_JUMPS_SCRIPT = [
  "(() => {",
  `  const renderAll = () => document.documentElement.setAttribute(${JSON.stringify(RENDER_ALL_ATTRIBUTE)}, "");`,
  '  addEventListener("popstate", renderAll);',
  // Capturing on the window: before the router's own listener takes the click.
  '  addEventListener("click", (event) => { if (event.target.closest?.(\'a[href*="#"]\')) renderAll(); }, true);',
  "  try {",
  `    const positions = JSON.parse(sessionStorage.getItem(${JSON.stringify(REMIX_POSITIONS_KEY)}) || "{}");`,
  '    if (typeof positions[history.state?.key] === "number") renderAll();',
  "  } catch {}",
  "})();",
].join("\n");
