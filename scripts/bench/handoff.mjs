// The step after the tap: how long from the tap on the landing page's main action to
// the browser's request for WhatsApp's address, with JavaScript and without, in Debian's
// Chromium as a Pixel 7 at 390x844. A figure for the table, not a target: the browser test
// (tests/e2e/tap-to-whatsapp.spec.ts) holds its bar of 1.5 s.
import { chromium, devices } from "@playwright/test";
import { CHROMIUM_FLAGS, findChromium } from "../lib/chromium.mjs";

const RUNS = 5;
const WHATSAPP = /^https:\/\/(wa\.me|api\.whatsapp\.com)\//;
const MAIN_ACTION = "Get the app on WhatsApp";

/**
 * One tap, in a context of its own (its own visitor address, so the lead is new): milliseconds
 * from the tap to the request for WhatsApp, both on the browser's clock. With JavaScript the tap
 * is the click event's own time; without it nothing runs in the page, and the tap is the moment
 * the browser starts the request for /thank-you it made.
 */
async function oneTap(browser, baseUrl, javaScript, visitor) {
  const context = await browser.newContext({
    ...devices["Pixel 7"],
    viewport: { width: 390, height: 844 },
    javaScriptEnabled: javaScript,
    extraHTTPHeaders: { "x-forwarded-for": `198.18.${Math.floor(visitor / 250)}.${visitor % 250}` },
  });
  try {
    let whatsapp = null;
    await context.route(WHATSAPP, (route) => {
      whatsapp ??= route.request();
      return route.fulfill({ contentType: "text/html", body: "<!doctype html><title>WA</title>" });
    });
    const page = await context.newPage();
    let tappedAt = null;
    if (javaScript) {
      await page.exposeBinding("__benchTapped", (_source, at) => {
        tappedAt ??= at;
      });
      await page.addInitScript(() => {
        document.addEventListener(
          "click",
          (event) => window.__benchTapped(performance.timeOrigin + event.timeStamp),
          { capture: true },
        );
      });
    }
    let thankYou = null;
    page.on("request", (request) => {
      if (request.isNavigationRequest() && new URL(request.url()).pathname === "/thank-you") {
        thankYou ??= request;
      }
    });
    await page.goto(`${baseUrl}/?source=bench-handoff-${visitor}`);
    if (javaScript) await page.waitForFunction(() => "__remixRouter" in window);
    await page.locator("#hero").getByRole("link", { name: MAIN_ACTION }).tap();
    await page.waitForURL((url) => url.hostname === "wa.me", { timeout: 15_000 });
    if (!whatsapp || !thankYou) throw new Error("the tap did not pass /thank-you to WhatsApp");
    return whatsapp.timing().startTime - (tappedAt ?? thankYou.timing().startTime);
  } finally {
    await context.close();
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

/** `RUNS` taps with JavaScript and as many without, one after another. */
export async function measureHandOff({ baseUrl, log }) {
  // Playwright closes the browser itself if the run ends early (an error, Ctrl-C).
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_FLAGS });
  let visitor = 0;
  const result = {};
  try {
    for (const javaScript of [true, false]) {
      const name = javaScript ? "withJs" : "withoutJs";
      log(`Tap to WhatsApp, JavaScript ${javaScript ? "on" : "off"}, ${RUNS} taps…`);
      const runs = [];
      for (let run = 0; run < RUNS; run++) {
        runs.push(await oneTap(browser, baseUrl, javaScript, ++visitor));
      }
      result[name] = { runs, median: median(runs), max: Math.max(...runs) };
    }
  } finally {
    await browser.close();
  }
  return result;
}

/** The table's rows (scripts/bench/table.mjs). */
export function handOffRows(handOff) {
  const rows = [
    {
      section: `The tap on /'s main action to WhatsApp's address (Chromium as a Pixel 7, ${RUNS} taps each; the bar: about 1 s, at most 1.5 s)`,
    },
  ];
  if (!handOff || handOff.error) {
    rows.push({ label: "Tap to WhatsApp", value: `not measured: ${handOff?.error ?? "skipped"}` });
    return rows;
  }
  const value = ({ median, max, runs }) =>
    `median ${Math.round(median)} ms, max ${Math.round(max)} ms (${runs.map(Math.round).join(", ")})`;
  rows.push(
    { label: "with JavaScript (from the click event)", value: value(handOff.withJs) },
    { label: "without JavaScript (from the request it starts)", value: value(handOff.withoutJs) },
  );
  return rows;
}
