import { expect, type Page } from "@playwright/test";

/**
 * Playwright's page.clock, installed before the page loads, with the page's performance entries
 * left real. The clock's stand-in `performance` answers every entry query with nothing, so the
 * boot script (app/document/boot-script.server.ts) never sees the first paint and starts only at
 * its 3 s fallback, when /thank-you's hand-off is already due, and
 * hooks/use-redirect-countdown.ts never sees that the visitor came Back.
 *
 * Time itself (Date, timers, performance.now()) is the clock's: it runs with the real one until
 * the test moves it on with page.clock.runFor, which fires every timer due on the way. Its
 * performance.now() counts from the install in every document the page loads, so /thank-you's
 * 3 s count from there too: one install per test, just before the page it is about.
 */
export async function installClock(
  page: Page,
  options?: { time?: number | string | Date; held?: boolean },
) {
  // Context scripts run in the order they were added: this one before the clock's, the last after.
  await page.context().addInitScript(() => {
    Object.assign(window, { __e2eRealPerformance: performance });
  });
  // Held: paused at its first moment, never running, so no time can pass before the pause
  // (installed, then paused a moment later, a slow machine could already be past that moment).
  if (options?.held) await page.clock.pauseAt(options.time ?? Date.now());
  else await page.clock.install(options);
  await page.context().addInitScript(() => {
    const real = (window as unknown as { __e2eRealPerformance: Performance }).__e2eRealPerformance;
    for (const key of ["getEntries", "getEntriesByName", "getEntriesByType"] as const) {
      Object.assign(performance, { [key]: real[key].bind(real) });
    }
  });
}

/** Where a held clock starts: any fixed moment will do. */
const HELD_FROM = Date.UTC(2026, 10, 26, 8);

/**
 * The page's clock installed as above, and held still: nothing timed happens until the test
 * moves it on (page.clock.runFor), however long the machine takes. Every document the page
 * loads starts at HELD_FROM with performance.now() at 0. For /thank-you, whose hand-off is due
 * a second after the page starts: the test can read and tap the page while it still counts
 * down. Hydration needs the clock too (the boot script waits for a frame): see
 * `hydrateOnHeldClock`.
 */
export async function holdClock(page: Page) {
  await installClock(page, { time: HELD_FROM, held: true });
}

/**
 * Moves a held clock on a frame at a time until the page is hydrated, waiting for the page
 * between frames: the boot script's frame and timer, and React's idle start, run on the clock;
 * the module downloads on the real one. A few frames of the page's time, so still well before
 * a hand-off due at one second.
 */
export async function hydrateOnHeldClock(page: Page) {
  const isHydrated = () => page.evaluate(() => "__remixRouter" in window);
  for (let frame = 0; frame < 40; frame++) {
    if (await isHydrated()) return;
    await page.clock.runFor(16);
    // Asked from here: page.waitForFunction polls on the page's frames, which the clock holds.
    await expect
      .poll(isHydrated, { timeout: 250 })
      .toBe(true)
      .catch(() => undefined);
  }
  throw new Error("the page did not hydrate within 40 frames of its clock");
}

/**
 * Opens /thank-you (`path`) on a held clock, hydrated, and stops its hand-off with the page's
 * own "Stay on this page" button (`stay`, in the page's language); then lets time run again,
 * for tests about what the page is rather than where it leads. Once per test: it installs the
 * clock.
 */
export async function openThankYouAndStay(page: Page, path: string, stay: string) {
  await holdClock(page);
  await page.goto(path);
  await hydrateOnHeldClock(page);
  await page.getByRole("button", { name: stay }).click();
  await page.clock.resume();
}
