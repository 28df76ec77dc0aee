import type { Page } from "@playwright/test";
import { type ChildServer, startChildServer } from "../support/child-server";
import { installClock } from "./clock";
import { expect, test } from "./fixtures";
import { eventsFor, uniqueSource } from "./server-log";

/**
 * The countdown and the plans as a visitor meets them at 390x844 (mobile) and 1280x800 (desktop),
 * in both languages: the countdown shows numbers before and without scripts, and scripts take
 * it over without moving anything or a hydration error (the fixtures fail on console errors);
 * the plans show their period, what beta drivers get, and buttons that name their plan.
 */
const isMobile = () => test.info().project.name === "mobile";

async function atIssueSize(page: Page) {
  await page.setViewportSize(
    isMobile() ? { width: 390, height: 844 } : { width: 1280, height: 800 },
  );
}

async function hydrated(page: Page) {
  await page.waitForFunction(() => "__remixRouter" in window);
}

const UNITS = ["days", "hours", "mins", "secs"];
const cells = (page: Page) =>
  Promise.all(UNITS.map((unit) => page.locator(`[data-unit=${unit}]`).textContent()));
const labels = (page: Page) =>
  Promise.all(UNITS.map((unit) => page.locator(`[data-unit-label=${unit}]`).textContent()));

const LANGUAGES = [
  {
    path: "/",
    labels: ["days", "hours", "mins", "secs"],
    spoken: "Beta closes in 2 days",
    buttons: ["Get Plus free", "Get Basic free", "Choose Pro"],
    period: "per year",
    badge: "Free for beta drivers",
    thankYou: "/thank-you",
  },
  {
    path: "/ar",
    labels: ["يومان", "ساعة", "دقيقة", "ثانية"],
    spoken: "يتبقّى على إغلاق النسخة التجريبية يومان",
    buttons: ["احصل على بلس مجانًا", "اختر الأساسية", "اختر برو"],
    period: "سنويًا",
    badge: "مجانية لسائقي النسخة التجريبية",
    thankYou: "/ar/thank-you",
  },
] as const;

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  for (const language of LANGUAGES) {
    test(`${language.path}: the countdown shows its numbers, and the plans their periods and plans @wide`, async ({
      page,
    }) => {
      await atIssueSize(page);
      await page.goto(language.path);
      await expect(page.locator("[data-unit=days]")).toBeVisible();
      expect(await cells(page)).toEqual(["02", "00", "00", "00"]);
      expect(await labels(page)).toEqual([...language.labels]);
      await expect(page.locator("#hero .sr-only").first()).toHaveText(language.spoken);

      const plans = page.locator("#plans");
      await plans.scrollIntoViewIfNeeded();
      const buttons = plans.getByRole("link");
      await expect(buttons).toHaveText([...language.buttons]);
      // The offer first (tests/e2e/plans.spec.ts has the layout).
      for (const [index, plan] of ["plus", "basic", "pro"].entries()) {
        const href = new URL((await buttons.nth(index).getAttribute("href")) ?? "", page.url());
        expect(href.pathname).toBe(language.thankYou);
        expect(href.searchParams.get("plan")).toBe(plan);
      }
      // Each paid price with its period, visible; the free plan without one.
      const periods = plans.locator("[data-plan-period]");
      await expect(periods).toHaveCount(2);
      for (const period of await periods.all()) {
        await expect(period).toBeVisible();
        await expect(period).toHaveText(language.period);
      }
      await expect(plans.getByText(language.badge, { exact: true })).toBeVisible();
    });
  }

  test("a plan's button opens WhatsApp with the message naming its plan, and the lead names it", async ({
    page,
  }) => {
    // WhatsApp stands in here: the page hands off to it a second after the tap.
    await page
      .context()
      .route(/^https:\/\/wa\.me\//, (route) =>
        route.fulfill({ contentType: "text/html", body: "<!doctype html><title>WhatsApp</title>" }),
      );
    const source = uniqueSource("plan");
    await page.goto(`/?source=${source}`);
    // Through /thank-you, which without JavaScript moves on at once: its request is the trace.
    const thankYou = page.waitForRequest(
      new RegExp(`/thank-you\\?cta=whatsapp&source=${source}&plan=pro&`),
    );
    await page.locator("#plans").getByRole("link", { name: "Choose Pro" }).click();
    await thankYou;
    await page.waitForURL((url) => url.hostname === "wa.me");
    const go = new URL(page.url());
    // The plan's message, then the lead's chat reference on a line of its own.
    expect(go.searchParams.get("text")).toMatch(
      /^Hi Darb! I'd like the Pro plan\.\n\nRef DRB-[23456789ABCDEFGHJKMNPQRSTWXYZ]{5}$/,
    );
    await expect
      .poll(() =>
        eventsFor(source).map((event) => [event.name, event.params.plan, event.params.placement]),
      )
      .toEqual([
        // The landing page's view, from its no-JS image.
        ["campaign_details", undefined, undefined],
        ["page_view", undefined, undefined],
        // The lead, from the plan's own button.
        ["campaign_details", undefined, undefined],
        ["page_view", undefined, undefined],
        ["conversion", "pro", "plan-pro"],
        ["generate_lead", "pro", "plan-pro"],
      ]);
  });
});

/**
 * Records, before any of the page's scripts run, the countdown as the server sent it and every
 * layout shift from the end of parsing on, where the takeover happens (the boot script imports
 * the app after the first paint). A loaded machine's parser may paint a half-parsed header,
 * which is the parser's doing, not the scripts'.
 */
async function watchCountdown(page: Page) {
  await page.addInitScript(() => {
    const state = window as unknown as {
      __shifts: { value: number; sources: string[] }[];
      __before?: { texts: string[]; boxes: number[][] };
      __parsedAt?: number;
    };
    state.__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {
        value: number;
        hadRecentInput: boolean;
        startTime: number;
        sources: { node?: Node }[];
      }[]) {
        if (entry.hadRecentInput) continue;
        if (state.__parsedAt === undefined || entry.startTime < state.__parsedAt) continue;
        state.__shifts.push({
          value: entry.value,
          sources: entry.sources.map((source) =>
            source.node instanceof Element
              ? source.node.outerHTML.slice(0, 80)
              : `${source.node?.nodeName}: ${source.node?.textContent}`,
          ),
        });
      }
    }).observe({ type: "layout-shift", buffered: true });
    document.addEventListener("DOMContentLoaded", () => {
      // On the shifts' own timeline: with the page's clock installed, performance.now() is the
      // clock's, counted from its install.
      const [navigation] = performance.getEntriesByType(
        "navigation",
      ) as PerformanceNavigationTiming[];
      state.__parsedAt = navigation?.domContentLoadedEventStart ?? performance.now();
      const parts = [...document.querySelectorAll("[data-unit], [data-unit-label]")];
      state.__before = {
        texts: parts.map((part) => part.textContent ?? ""),
        boxes: parts.map((part) => {
          const cell = (part.parentElement as Element).getBoundingClientRect();
          return [cell.x, cell.y, cell.width, cell.height];
        }),
      };
    });
  });
}

/**
 * Waits for the countdown to tick from the browser's clock, then returns what the server sent,
 * where the cells stand now, and the layout shifts since the page began.
 */
async function afterTakeover(page: Page) {
  await hydrated(page);
  const secs = page.locator("[data-unit=secs]");
  const seconds = await secs.textContent();
  await expect(secs).not.toHaveText(seconds ?? "", { timeout: 2000 });
  return page.evaluate(() => {
    const state = window as unknown as {
      __shifts: { value: number; sources: string[] }[];
      __before: { texts: string[]; boxes: number[][] };
    };
    const parts = [...document.querySelectorAll("[data-unit], [data-unit-label]")];
    return {
      before: state.__before,
      after: parts.map((part) => {
        const cell = (part.parentElement as Element).getBoundingClientRect();
        return [cell.x, cell.y, cell.width, cell.height];
      }),
      shifts: state.__shifts,
    };
  });
}

test.describe("with JavaScript on", () => {
  for (const language of LANGUAGES) {
    test(`${language.path}: scripts take the countdown over without moving it @wide`, async ({
      page,
    }) => {
      await atIssueSize(page);
      await watchCountdown(page);
      await page.goto(language.path);
      const { before, after, shifts } = await afterTakeover(page);
      // The server sent numbers, not "--": two days, with the labels those numbers take.
      expect(before.texts).toEqual(
        UNITS.flatMap((_, index) => [index === 0 ? "02" : "00", language.labels[index]]),
      );
      expect(after).toEqual(before.boxes);
      expect(shifts).toEqual([]);
    });
  }
});

test.describe("with BETA_CLOSES_AT set, from the render cache", () => {
  // A close three days and a half ahead, at a time of day: the date line carries the time.
  const closes = new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 3.5 * 86_400_000);
  let server: ChildServer;
  test.beforeAll(async () => {
    server = await startChildServer({ BETA_CLOSES_AT: closes.toISOString() });
  });
  test.afterAll(async () => {
    await server?.kill();
  });

  for (const [path, closing] of [
    ["/", "Beta closes "],
    ["/ar", "تُغلق النسخة التجريبية يوم "],
  ] as const) {
    test(`${path}: a page rendered seconds ago hydrates without a mismatch or a shift @wide`, async ({
      page,
      request,
    }) => {
      await atIssueSize(page);
      // Rendered and cached now; this visitor gets it two seconds later, its cells two seconds
      // old: the page's clock starts 2.1 s past that render, and runs on from there.
      const primed = await (await request.get(`${server.origin}${path}`)).text();
      const renderedAt = Number(/"renderedAt":(\d+)/.exec(primed)?.[1]);
      expect(renderedAt, "the render's time, in its loader data").toBeGreaterThan(0);
      await installClock(page, { time: renderedAt + 2100 });
      await watchCountdown(page);
      await page.goto(`${server.origin}${path}`);
      await expect(page.locator("#hero time")).toHaveAttribute("datetime", closes.toISOString());
      await expect(page.locator("#hero time").locator("..")).toContainText(closing);
      const { before, after, shifts } = await afterTakeover(page);
      expect(before.texts[0]).toBe("03");
      expect(after).toEqual(before.boxes);
      expect(shifts).toEqual([]);
    });
  }
});
