import type { Page } from "@playwright/test";

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
export async function installClock(page: Page, options?: { time?: number | string | Date }) {
  // Context scripts run in the order they were added: this one before the clock's, the last after.
  await page.context().addInitScript(() => {
    Object.assign(window, { __e2eRealPerformance: performance });
  });
  await page.clock.install(options);
  await page.context().addInitScript(() => {
    const real = (window as unknown as { __e2eRealPerformance: Performance }).__e2eRealPerformance;
    for (const key of ["getEntries", "getEntriesByName", "getEntriesByType"] as const) {
      Object.assign(performance, { [key]: real[key].bind(real) });
    }
  });
}
