/**
 * Without BETA_CLOSES_AT the beta closes two days after this browser first loaded the page
 * (docs/decisions/018-countdown-that-keeps-its-word.md). This script, the app's own and nonce'd,
 * runs as the page is parsed, right after the countdown's cells:
 * - it reads that first load back from localStorage, or keeps this one: a value that is not the
 *   digits of a time at or before now (a clock set back since, someone else's value) counts as
 *   none; storage refused leaves this load, never an error;
 * - it leaves the start for the countdown (components/Countdown.tsx) in a window property;
 * - when the figures will not be the server's two days (a reload, a second visit), it marks the
 *   countdown to wait: the stylesheet hides it, its space kept, until hydration's first tick has
 *   put this browser's figures in. So the server's "02 days 00 00 00" is never painted and then
 *   jumps, and hydration itself still renders the server's text, which React finds as it was.
 * It is every byte of it in the / document's first round trip, so it is short; the countdown
 * part's static markup keeps it, and the browser never runs it again.
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
  `if (Date.now() - start > 999) document.querySelector("[data-countdown]").setAttribute(${json(COUNTDOWN_WAIT_ATTRIBUTE)}, "");`,
  "})();",
].join("\n");
