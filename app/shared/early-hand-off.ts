/**
 * /thank-you's hand-off with JavaScript, started by a small inline script as the page is parsed
 * rather than by React once the page is hydrated, which on a busy phone comes later than the
 * second the hand-off may take (docs/decisions/019-a-one-second-hand-off.md). The page's hook
 * (hooks/use-redirect-countdown.ts) shows the countdown and cancels it: "Stay on this page", or
 * leaving the page through the router.
 */

/** Where the script leaves its handle on `window`. */
export const EARLY_HAND_OFF = "__darbHandOff";

export type EarlyHandOff = {
  state: "pending" | "fired" | "cancelled";
  cancel: () => void;
};

/** A value written into a script: `<` escaped, so no string can close the <script> element. */
const scriptValue = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/**
 * The script's source: `target` opened `delayMs` after the document's start (the tap), unless
 * the visitor came Back to this page, which never sends anyone out again.
 */
export function earlyHandOffScript(target: string, delayMs: number): string {
  return [
    "(() => {",
    '  const entry = performance.getEntriesByType("navigation")[0];',
    '  if (entry && entry.type === "back_forward") return;',
    `  const handOff = { state: "pending", cancel() { if (handOff.state === "pending") { clearTimeout(timer); handOff.state = "cancelled"; } } };`,
    "  const timer = setTimeout(() => {",
    '    handOff.state = "fired";',
    `    location.assign(${scriptValue(target)});`,
    `  }, Math.max(0, ${scriptValue(delayMs)} - performance.now()));`,
    `  window[${scriptValue(EARLY_HAND_OFF)}] = handOff;`,
    "})();",
  ].join("\n");
}

/** The script's handle in this document, if it ran (a page rendered by the router has none). */
export function earlyHandOff(): EarlyHandOff | undefined {
  return (window as unknown as Record<string, EarlyHandOff | undefined>)[EARLY_HAND_OFF];
}
