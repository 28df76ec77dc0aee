import type { Page, TestInfo } from "@playwright/test";
import { type ChildServer, startChildServer } from "../support/child-server";
import { installClock } from "./clock";
import { expect, test } from "./fixtures";

/**
 * A countdown that keeps its word, as a visitor with JavaScript meets it on a phone
 * (docs/decisions/018-countdown-that-keeps-its-word.md). Without BETA_CLOSES_AT the countdown
 * runs two days from this browser's first load: a reload or a second visit continues it, and the
 * server's "02 days 00 00 00" is never painted and then replaced. With BETA_CLOSES_AT, the
 * figures the server sends are the ones hydration shows. The fixtures fail a test on any console
 * error (a hydration mismatch is one) or CSP violation.
 */
test.skip(({ isMobile }) => !isMobile, "a phone's countdown");

const SECOND = 1000;
const DAY = 86_400 * SECOND;
/** The page's clock: fixed, so the figures are exact; timers still run. */
const T0 = Date.UTC(2026, 10, 25, 6, 0, 0);

type Frame = { visible: boolean; cells: string };
type Watch = { frames: Frame[]; shifts: number[] };

/**
 * Before anything of the page runs: on every frame the browser renders (its real
 * requestAnimationFrame, kept before the page's clock replaces it), what the countdown shows,
 * whenever that changes; and every layout shift. A frame's callbacks run just before its paint,
 * so these are the figures a visitor saw, in order.
 */
async function watchCountdown(page: Page) {
  await page.context().addInitScript(() => {
    const frame = window.requestAnimationFrame.bind(window);
    const watch: Watch = { frames: [], shifts: [] };
    Object.assign(window, { __e2eCountdown: watch });
    const look = () => {
      const root = document.querySelector("[data-countdown]");
      if (root) {
        const visible = getComputedStyle(root).visibility === "visible";
        const cells = [...root.querySelectorAll("[data-unit]")]
          .map((cell) => cell.textContent)
          .join(" ");
        const last = watch.frames.at(-1);
        if (last?.visible !== visible || last?.cells !== cells)
          watch.frames.push({ visible, cells });
      }
      frame(look);
    };
    frame(look);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number }[]) {
        watch.shifts.push(entry.value);
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

const watched = (page: Page) =>
  page.evaluate(() => (window as unknown as { __e2eCountdown: Watch }).__e2eCountdown);

/** Hydrated, and the first tick has put the browser's figures in. */
async function ticking(page: Page) {
  await page.waitForFunction(() => "__remixRouter" in window);
  await expect(page.locator("[data-countdown][data-ticking]")).toBeVisible();
}

const cells = (page: Page) =>
  page.locator("#hero [data-unit]").evaluateAll((all) => all.map((cell) => cell.textContent));
const spoken = (page: Page) => page.locator("#hero [data-countdown] .sr-only").textContent();

async function attachCountdown(page: Page, testInfo: TestInfo, name: string) {
  const row = page.locator("#hero [data-countdown]").locator("..");
  await testInfo.attach(name, { body: await row.screenshot(), contentType: "image/png" });
}

test.describe("without BETA_CLOSES_AT: two days from this browser's first load", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("a reload 5 s later continues the countdown, 5 s less, and never paints the two days first", async ({
    page,
  }, testInfo) => {
    await watchCountdown(page);
    await installClock(page, { time: T0 });
    await page.clock.setFixedTime(T0);
    await page.goto("/");
    await ticking(page);
    expect(await cells(page)).toEqual(["02", "00", "00", "00"]);
    await attachCountdown(page, testInfo, "first visit");

    await page.clock.setFixedTime(T0 + 5 * SECOND);
    await page.reload();
    await ticking(page);
    expect(await cells(page)).toEqual(["01", "23", "59", "55"]);
    expect(await spoken(page)).toBe("Beta closes in 1 day, 23 hours, and 59 minutes");
    const { frames, shifts } = await watched(page);
    // The first frame painted with the cells hid the server's figures; every frame that showed
    // them showed this browser's count.
    expect(frames[0]).toEqual({ visible: false, cells: "02 00 00 00" });
    expect(frames.filter((frame) => frame.visible)).toEqual([
      { visible: true, cells: "01 23 59 55" },
    ]);
    expect(shifts).toEqual([]);
    await attachCountdown(page, testInfo, "reload 5 s later");
  });

  test("a second visit continues it, in the other language, and so does a way back to the page", async ({
    page,
  }, testInfo) => {
    // Before the clock, for both tabs: the watch needs the real requestAnimationFrame, whose
    // callbacks run just before a paint (after, it would read the clock's, which may run at a
    // moment no frame is painted).
    await watchCountdown(page);
    await installClock(page, { time: T0 });
    await page.clock.setFixedTime(T0);
    await page.goto("/");
    await ticking(page);

    // Another tab, an hour later, in Arabic.
    const second = await page.context().newPage();
    await second.clock.setFixedTime(T0 + 3600 * SECOND);
    await second.goto("/ar");
    await ticking(second);
    expect(await cells(second)).toEqual(["01", "23", "00", "00"]);
    expect(await spoken(second)).toBe("يتبقّى على إغلاق النسخة التجريبية يوم واحد و23 ساعة");
    expect((await watched(second)).frames.filter((frame) => frame.visible)).toEqual([
      { visible: true, cells: "01 23 00 00" },
    ]);
    await attachCountdown(second, testInfo, "second visit, Arabic");

    // To /ar/share and back to /ar by the router: the countdown mounts again from this
    // browser's start, never from the two days.
    const footer = second.getByRole("contentinfo");
    await footer.getByRole("link", { name: "شارك درب" }).click();
    await expect(second).toHaveURL(/\/ar\/share$/);
    await second.clock.setFixedTime(T0 + 3610 * SECOND);
    await footer.getByRole("link", { name: "الرئيسية" }).click();
    await expect(second).toHaveURL(/\/ar$/);
    await expect(second.locator("#hero [data-unit=secs]")).toHaveText("50");
    expect(await cells(second)).toEqual(["01", "22", "59", "50"]);
    const shown = (await watched(second)).frames.filter((frame) => frame.visible);
    expect(shown.map((frame) => frame.cells)).not.toContain("02 00 00 00");
    await second.close();
  });

  test("two days on it is over: zeros, the beta closed, and no new start", async ({
    page,
  }, testInfo) => {
    await installClock(page, { time: T0 });
    await page.clock.setFixedTime(T0);
    await page.goto("/");
    await ticking(page);
    await page.clock.setFixedTime(T0 + 2 * DAY + 3600 * SECOND);
    await page.reload();
    await ticking(page);
    expect(await cells(page)).toEqual(["00", "00", "00", "00"]);
    expect(await spoken(page)).toBe("The beta has closed");
    await page.clock.setFixedTime(T0 + 9 * DAY);
    await page.reload();
    await ticking(page);
    expect(await cells(page)).toEqual(["00", "00", "00", "00"]);
    expect(await page.evaluate(() => localStorage.getItem("darb:beta-start"))).toBe(String(T0));
    await attachCountdown(page, testInfo, "two days on");
  });

  test("with storage refused it counts this page load's two days, without an error", async ({
    page,
  }) => {
    await page.addInitScript(() => {
      Object.defineProperty(window, "localStorage", {
        get: () => {
          throw new DOMException("The operation is insecure.", "SecurityError");
        },
      });
    });
    await installClock(page, { time: T0 });
    await page.clock.setFixedTime(T0);
    await page.goto("/");
    await ticking(page);
    expect(await cells(page)).toEqual(["02", "00", "00", "00"]);
  });
});

test.describe("with BETA_CLOSES_AT set", () => {
  test.use({ viewport: { width: 390, height: 844 } });
  // Three days and a half ahead, at a time of day.
  const closes = new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 3.5 * DAY);
  let server: ChildServer;
  test.beforeAll(async () => {
    server = await startChildServer({ BETA_CLOSES_AT: closes.toISOString() });
  });
  test.afterAll(async () => {
    await server?.kill();
  });

  for (const path of ["/", "/ar"]) {
    test(`${path}: the figures the server sent are the ones hydration shows`, async ({
      page,
    }, testInfo) => {
      await watchCountdown(page);
      await installClock(page);
      // The page's clock stands still while the page loads, so its scripts (the app's boot waits
      // on its timers) wait; then it stands at the moment the server rendered this very
      // response, and the first tick after hydration computes the figures again, to the second.
      await page.clock.pauseAt(Date.now() + 5000);
      const response = await page.goto(`${server.origin}${path}`);
      const html = (await response?.text()) ?? "";
      const sent = {
        renderedAt: Number(/"renderedAt":(\d+)/.exec(html)?.[1]),
        cells: [...html.matchAll(/data-unit="\w+"[^>]*>(\d\d)</g)].map((m) => m[1]).join(" "),
      };
      await page.clock.setFixedTime(sent.renderedAt);
      await page.clock.resume();
      await ticking(page);
      expect(sent.renderedAt).toBeGreaterThan(0);
      expect(sent.cells).toMatch(/^03 \d\d \d\d \d\d$/);
      expect((await cells(page)).join(" ")).toBe(sent.cells);
      // Every frame painted, before hydration and after it, showed the server's figures.
      const { frames, shifts } = await watched(page);
      expect(frames).toEqual([{ visible: true, cells: sent.cells }]);
      expect(shifts).toEqual([]);
      await attachCountdown(page, testInfo, `BETA_CLOSES_AT ${path}`);
    });
  }
});
