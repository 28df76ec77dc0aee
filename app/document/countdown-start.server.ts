/**
 * Without BETA_CLOSES_AT the beta closes two days after this browser first loaded the page
 * (docs/decisions/018-countdown-that-keeps-its-word.md). This script, the app's own and nonce'd,
 * runs in the landing page's head, before the stylesheet, so nothing waits on it and nothing is
 * painted before it (`withCountdownStart` puts it in the empty script root.tsx leaves there):
 * - it reads that first load back from localStorage, or keeps this one: a value that is not the
 *   digits of a time at or before now (a clock set back since, someone else's value) counts as
 *   none; storage refused leaves this load, never an error;
 * - it leaves the start for the countdown (components/Countdown.tsx) in a window property;
 * - when the figures will not be the server's two days (a reload, a second visit), it marks
 *   `<html>`, and the stylesheet hides the cells, their space kept, until hydration's first tick
 *   has put this browser's figures in and marked them ticking. So the server's "02 days 00 00 00"
 *   is never painted and then replaced, and hydration still finds exactly the server's markup.
 * Every byte of it is in the / document's first round trip, so it is short.
 */
import { BETA_START_GLOBAL, BETA_START_KEY, COUNTDOWN_WAIT_ATTRIBUTE } from "~/shared/countdown";

const json = JSON.stringify;

export const COUNTDOWN_START_SCRIPT = [
  "(() => {",
  "let start = Date.now();",
  "try {",
  `const kept = localStorage.getItem(${json(BETA_START_KEY)});`,
  "if (/^\\d{1,15}$/.test(kept) && kept <= start) start = +kept;",
  `else localStorage.setItem(${json(BETA_START_KEY)}, start);`,
  "} catch {}",
  `window.${BETA_START_GLOBAL} = start;`,
  // A second or more gone: the server's two days are not this browser's figures.
  `if (Date.now() - start > 999) document.documentElement.setAttribute(${json(COUNTDOWN_WAIT_ATTRIBUTE)}, "");`,
  "})();",
].join("\n");

/**
 * The document with the start script in the head's empty script (root.tsx), when the page shows
 * the countdown's cells and counts from the first load (no BETA_CLOSES_AT). Rendered by React
 * as an element with its own (empty) markup, the script is kept as the server sent it by
 * hydration, and the browser bundle carries none of it. `nonce` is what the render wrote in
 * nonces: this response's, or the render cache's slot.
 */
export function withCountdownStart(html: string, nonce: string, betaClosesAt: Date | null): string {
  const slot = `<script nonce="${nonce}"></script>`;
  if (betaClosesAt || !html.includes(" data-countdown=")) return html;
  return html.replace(slot, () => `<script nonce="${nonce}">${COUNTDOWN_START_SCRIPT}</script>`);
}
