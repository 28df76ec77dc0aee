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
 */

/** The flag on `<html>` that renders every section (the stylesheet matches it). */
export const RENDER_ALL_ATTRIBUTE = "data-render-all";

/**
 * Remix's scroll restorer, as @remix-run/react 2.x's <ScrollRestoration> writes it: it runs while
 * the page is parsed, and scrolls to the position stored for this history entry, if any.
 */
const REMIX_RESTORER =
  /<script nonce="([^"]*)">(\(\(STORAGE_KEY, restoreKey\) => \{[^<]*\}\)\(("[^"<]*"), (null|"[^"<]*")\))<\/script>/;

/** Runs before Remix's restorer, with the same storage key and history key. */
function renderAllScript(storageKey: string, restoreKey: string): string {
  return [
    "((storageKey, restoreKey) => {",
    `  const renderAll = () => document.documentElement.setAttribute(${JSON.stringify(RENDER_ALL_ATTRIBUTE)}, "");`,
    '  addEventListener("popstate", renderAll);',
    // Capturing on the window: before the router's own listener takes the click.
    '  addEventListener("click", (event) => { if (event.target.closest?.(\'a[href*="#"]\')) renderAll(); }, true);',
    "  try {",
    '    const positions = JSON.parse(sessionStorage.getItem(storageKey) || "{}");',
    '    if (typeof positions[restoreKey || history.state?.key] === "number") renderAll();',
    "  } catch {}",
    `})(${storageKey}, ${restoreKey});`,
  ].join("\n");
}

let warned = false;

/**
 * The document with the flag's script put in front of Remix's restorer, in the same element: React
 * hydrates that element without comparing its text, where a new element would be a mismatch.
 * A document whose restorer does not look as expected keeps it as it is, and says so once; its
 * jumps then land near their sections rather than on them.
 */
export function renderAllBeforeJumps(html: string): string {
  const found = REMIX_RESTORER.exec(html);
  if (!found?.[2] || !found[3] || !found[4]) {
    if (!warned && /<script[^>]*>\(\(STORAGE_KEY\b/.test(html)) {
      warned = true;
      console.warn("render-before-jumps: Remix's scroll restorer has changed; jumps may land off");
    }
    return html;
  }
  const script = `<script nonce="${found[1]}">${renderAllScript(found[3], found[4])}\n${found[2]}</script>`;
  return html.replace(found[0], () => script);
}
