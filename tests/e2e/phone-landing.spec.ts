// Issue 17: the landing page as a visitor from Instagram or WhatsApp sees it on a phone. What
// must be on the first screen, how long the page may be, the sticky WhatsApp action, and a
// screenshot of every screen kept under .artifacts/screens for a person to look at.
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { IPHONE_SAFARI_17_5 } from "../support/user-agents";
import { expect, test } from "./fixtures";
import { eventsFor, uniqueSource } from "./server-log";

const PHONE = { width: 390, height: 844 };
const SCREENS = ".artifacts/screens";

const LANGUAGES = [
  {
    path: "/",
    locale: "en-AE",
    maxScreens: 8,
    action: "Get the app on WhatsApp",
    proof: "Rated 4.8 from 47 ratings",
  },
  {
    path: "/ar",
    locale: "ar-AE",
    maxScreens: 9,
    action: "احصل على التطبيق عبر واتساب",
    proof: "التقييم 4.8",
  },
] as const;
type Language = (typeof LANGUAGES)[number];

// Each test opens its own phone, so it runs once, in the phone project.
test.skip(({ isMobile }) => !isMobile, "opens its own 390x844 phone");

async function phone(
  browser: Browser,
  language: Language,
  options: { colorScheme?: "light" | "dark"; javaScriptEnabled?: boolean } = {},
) {
  const context = await browser.newContext({
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 1,
    userAgent: IPHONE_SAFARI_17_5,
    locale: language.locale,
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: {
      "x-forwarded-for": `10.251.${test.info().workerIndex}.${Date.now() % 250}`,
    },
    ...options,
  });
  return { page: await context.newPage(), close: () => context.close() };
}

/** The page laid out whole, as before a jump (render-when-near): its real height. */
function fullHeight(page: Page) {
  return page.evaluate(async () => {
    document.documentElement.setAttribute("data-render-all", "");
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return document.documentElement.scrollHeight;
  });
}

/** The element's box against the first screen: top, bottom, and whether it is shown at all. */
function box(page: Page, selector: string) {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const { top, bottom, height } = element.getBoundingClientRect();
      return {
        top,
        bottom,
        height,
        visible: element.checkVisibility({ visibilityProperty: true }),
      };
    });
}

for (const language of LANGUAGES) {
  for (const colorScheme of ["light", "dark"] as const) {
    test(`${language.path} ${colorScheme}: the first screen holds the headline, proof, main action and the app; the page is at most ${language.maxScreens} screens`, async ({
      browser,
    }) => {
      const { page, close } = await phone(browser, language, { colorScheme });
      await page.goto(language.path);
      await page.waitForFunction(() => "__remixRouter" in window);

      // The first screen, with no scrolling.
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      const headline = await box(page, "#hero h1");
      const proof = await box(page, `#hero li:has-text("${language.proof}")`);
      const action = await box(page, "#hero-main-action");
      const visual = await box(page, "#hero picture img");
      for (const [name, found] of Object.entries({ headline, proof, action })) {
        expect(found.visible, name).toBe(true);
        expect(found.top, name).toBeGreaterThanOrEqual(64);
        expect(found.bottom, name).toBeLessThanOrEqual(PHONE.height);
      }
      await expect(page.locator("#hero-main-action")).toHaveAccessibleName(language.action);
      // The app's screen starts on the first screen, with room to be seen (not a sliver), and
      // is there: its file arrived, in the page's language and scheme.
      expect(visual.visible).toBe(true);
      expect(visual.top).toBeLessThanOrEqual(PHONE.height - 100);
      const screen = page.locator("#hero picture img");
      await expect
        .poll(() =>
          screen.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)),
        )
        .toBeGreaterThan(0);
      expect(await screen.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(
        `/app-screens/drive-${language.path === "/" ? "en" : "ar"}-${colorScheme}.`,
      );

      const name = `${language.path === "/" ? "en" : "ar"}-${colorScheme}`;
      mkdirSync(SCREENS, { recursive: true });
      await page.screenshot({ path: `${SCREENS}/${name}-first.png` });

      const height = await fullHeight(page);
      test.info().annotations.push({
        type: "page height",
        description: `${height} px = ${(height / PHONE.height).toFixed(2)} screens`,
      });
      expect(height).toBeLessThanOrEqual(language.maxScreens * PHONE.height);

      for (let screen = 0; screen * PHONE.height < height; screen++) {
        await page.evaluate(
          (top) => window.scrollTo({ top, behavior: "instant" }),
          screen * PHONE.height,
        );
        // Two frames: the scrolled screen drawn, and what watches it (the sticky action's
        // observer) told; the bar's slide, if it moves, shown where it ends.
        await page.evaluate(
          () =>
            new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
        );
        await page.screenshot({
          path: `${SCREENS}/${name}-${String(screen + 1).padStart(2, "0")}.png`,
          animations: "disabled",
        });
      }
      await close();
    });
  }

  test(`${language.path}: the sticky action comes up after the hero's, and gives way at the download section, the closing call and the footer`, async ({
    browser,
  }) => {
    const { page, close } = await phone(browser, language);
    const source = uniqueSource("sticky");
    await page.goto(`${language.path}?source=${source}`);
    await page.waitForFunction(() => "__remixRouter" in window);
    await page.evaluate(() => {
      (window as unknown as { shifts: number }).shifts = 0;
      // Shifts the bar causes: sections laid out as they near the screen may settle on their own.
      const bar = document.getElementById("sticky-action");
      new PerformanceObserver((list) => {
        type Shift = PerformanceEntry & { value: number; sources: { node?: Node }[] };
        for (const entry of list.getEntries() as Shift[]) {
          const moved = entry.sources.map((source) => source.node);
          if (moved.some((node) => node && bar?.contains(node))) {
            (window as unknown as { shifts: number }).shifts += entry.value;
          }
        }
      }).observe({ type: "layout-shift" });
    });
    const sticky = page.locator("#sticky-action").getByRole("link", { name: language.action });

    // While the hero's own action is on screen: not there, and out of the tab order.
    await expect(sticky).toBeHidden();
    const scrollTo = (selector: string) =>
      page.locator(selector).evaluate((element) => element.scrollIntoView({ block: "start" }));

    await scrollTo("#how-it-works");
    await expect(sticky).toBeVisible();
    await expect(sticky).toBeInViewport({ ratio: 1 });
    await scrollTo("#safety-results");
    await expect(sticky).toBeVisible();

    // Where the page offers the same action itself, the bar gives way to it.
    await scrollTo("#download");
    await expect(sticky).toBeHidden();
    await scrollTo("#get-started");
    await expect(sticky).toBeHidden();
    await scrollTo("footer");
    await expect(sticky).toBeHidden();

    await scrollTo("#plans");
    await expect(sticky).toBeVisible();
    // It moved by transform only: no layout shift on the way.
    expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBe(0);

    // A real link into /thank-you, carrying the visit's campaign, reported as the sticky action.
    await page
      .context()
      .route(/^https:\/\/wa\.me\//, (route) =>
        route.fulfill({ contentType: "text/html", body: "<!doctype html><title>WhatsApp</title>" }),
      );
    const href = await sticky.getAttribute("href");
    expect(href).toMatch(/\/thank-you\?cta=whatsapp&/);
    expect(href).toContain(`source=${source}`);
    await sticky.click();
    await expect(page).toHaveURL(/\/thank-you\?cta=whatsapp&/);
    await expect
      .poll(() => eventsFor(source).find((event) => event.name === "external_link_click")?.params)
      .toMatchObject({ placement: "sticky", cta_type: "whatsapp" });
    await expect
      .poll(() => eventsFor(source).filter((e) => e.name === "generate_lead").length)
      .toBe(1);
    await close();
  });
}

test("on a wide screen the sticky action never shows: the header holds the actions", async ({
  browser,
}) => {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    baseURL: test.info().project.use.baseURL,
  });
  const page = await context.newPage();
  await page.goto("/");
  await page.waitForFunction(() => "__remixRouter" in window);
  // Past the hero, with no section offering the action on screen: where a phone shows the bar.
  // Its script marks it shown at any width; the wide layout is what keeps it away.
  await page.locator("#how-it-works").evaluate((element) => element.scrollIntoView());
  const bar = page.locator("#sticky-action");
  await expect(bar).toHaveAttribute("data-shown");
  await expect(bar).toBeHidden();
  await context.close();
});

test("without JavaScript the sticky action stays away and the hero's action still leads", async ({
  browser,
}) => {
  const { page, close } = await phone(browser, LANGUAGES[0], { javaScriptEnabled: false });
  await page.goto("/");
  await page.locator("#faq").evaluate((element) => element.scrollIntoView());
  await expect(page.locator("#sticky-action")).toBeHidden();
  await expect(page.locator("#hero-main-action")).toHaveAttribute(
    "href",
    /\/thank-you\?cta=whatsapp/,
  );
  await close();
});
