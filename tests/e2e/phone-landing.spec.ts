// The landing page as a visitor from Instagram or WhatsApp sees it on a phone. What
// must be on the first screen, how long the page may be, the sticky WhatsApp action, and a
// screenshot of every screen kept under .artifacts/screens for a person to look at. Also
// the app's screen cropped so its cards share the first screen, what happens after the tap,
// the Privacy link, and small phones (320 and 360 px) kept short and on one line.
import { mkdirSync } from "node:fs";
import type { Browser, Locator, Page } from "@playwright/test";
import { IPHONE_SAFARI_17_5 } from "../support/user-agents";
import { expect, test } from "./fixtures";
import { eventsFor, uniqueSource } from "./server-log";

const PHONE = { width: 390, height: 844 };
const SCREENS = ".artifacts/screens";

const LANGUAGES = [
  {
    path: "/",
    locale: "en-AE",
    other: "ar-AE",
    code: "en",
    maxScreens: 8,
    action: "Get the app on WhatsApp",
    proof: "Rated 4.8 from 47 ratings",
    privacy: { name: "Privacy", href: "/privacy" },
    // What How it works' first step promises, which the line under the main action repeats.
    promise: ["WhatsApp", "iPhone", "Android", "within the hour", "8 am to 10 pm"],
  },
  {
    path: "/ar",
    locale: "ar-AE",
    other: "en-AE",
    code: "ar",
    maxScreens: 9,
    action: "احصل على التطبيق عبر واتساب",
    proof: "التقييم 4.8",
    privacy: { name: "الخصوصية", href: "/ar/privacy" },
    promise: ["واتساب", "آيفون", "أندرويد", "خلال ساعة", "من 8 صباحًا حتى 10 مساءً"],
  },
] as const;
type Language = (typeof LANGUAGES)[number];

// Each test opens its own phone, so it runs once, in the phone project.
test.skip(({ isMobile }) => !isMobile, "opens its own 390x844 phone");

async function phone(
  browser: Browser,
  language: Language,
  options: {
    colorScheme?: "light" | "dark";
    javaScriptEnabled?: boolean;
    viewport?: { width: number; height: number };
    locale?: string;
  } = {},
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
      const { top, bottom, height, left, width } = element.getBoundingClientRect();
      return {
        top,
        bottom,
        height,
        left,
        width,
        visible: element.checkVisibility({ visibilityProperty: true }),
      };
    });
}

/**
 * How many lines the words a visitor sees in `element` take: a visually hidden part (a label's
 * end kept for screen readers, 1 px wide) is not counted. Lines are told apart by their middles.
 */
function lineCount(element: Locator) {
  return element.evaluate((root) => {
    const middles: number[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!node.textContent?.trim() || !parent || parent.getBoundingClientRect().width <= 1) {
        continue;
      }
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) {
        if (rect.width > 0) middles.push(rect.top + rect.height / 2);
      }
    }
    middles.sort((a, b) => a - b);
    return middles.filter((middle, i) => i === 0 || middle - (middles[i - 1] ?? 0) > 4).length;
  });
}

/** Every word drawn in an app screen's file, with its box in the drawing's units (288 across). */
async function drawnWords(page: Page, url: string) {
  const drawing = await page.context().newPage();
  await drawing.goto(url);
  const words = await drawing.evaluate(() => {
    const root = document.documentElement.getBoundingClientRect();
    const scale = root.width / 288;
    return [...document.querySelectorAll("text")].map((text) => {
      const { top, bottom } = text.getBoundingClientRect();
      return {
        text: text.textContent ?? "",
        top: (top - root.top) / scale,
        bottom: (bottom - root.top) / scale,
      };
    });
  });
  await drawing.close();
  return words;
}

/**
 * The words of the hero's app screen that are not wholly on the first screen: below its foot,
 * under the header, or cut off by the hero's end. `within` keeps only words whose top in the
 * drawing is above it (the top of the picture).
 */
async function wordsOffTheFirstScreen(page: Page, within = Number.POSITIVE_INFINITY) {
  const image = page.locator("#hero picture img");
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
    .toBeGreaterThan(0);
  const src = await image.evaluate((img: HTMLImageElement) => img.currentSrc);
  const picture = await box(page, "#hero picture img");
  const hero = await box(page, "#hero");
  const header = await box(page, "header");
  const screenHeight = page.viewportSize()?.height ?? 0;
  const scale = picture.width / 288;
  const words = (await drawnWords(page, src)).filter((word) => word.top < within);
  const off = words
    .map((word) => ({
      text: word.text,
      top: picture.top + word.top * scale,
      bottom: picture.top + word.bottom * scale,
    }))
    .filter(
      (word) => word.top < header.bottom || word.bottom > Math.min(screenHeight, hero.bottom),
    );
  return { src, words: words.map((word) => word.text), off };
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
      // Cropped to its cards, the screen shows its alert, drive score and cashback
      // whole on the first screen: every word it draws (Western digits in both languages).
      const cards = await wordsOffTheFirstScreen(page);
      expect(cards.words.join(" ")).toMatch(/400.*100.*112.*92.*86/s);
      expect(cards.off).toEqual([]);
      expect(await screen.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(
        `/app-screens/drive-cropped-${language.code}-${colorScheme}.`,
      );

      const name = `${language.code}-${colorScheme}`;
      mkdirSync(SCREENS, { recursive: true });
      await page.screenshot({ path: `${SCREENS}/${name}-first.png` });
      await test.info().attach(`${name} 390x844 first screen`, {
        body: await page.screenshot(),
        contentType: "image/png",
      });

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
    // The request itself: on a busy machine the thank-you page may hand off to WhatsApp before a
    // look at the address bar would catch it there.
    const lead = page.waitForRequest(/\/thank-you\?cta=whatsapp&/);
    await sticky.click();
    expect((await lead).isNavigationRequest()).toBe(true);
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

// What happens after the tap, the way to the privacy notice, and small phones.
for (const language of LANGUAGES) {
  test(`${language.path}: under the main action one line says what How it works says happens next, beside a quiet Privacy link`, async ({
    browser,
  }) => {
    const { page, close } = await phone(browser, language);
    await page.goto(language.path);
    const action = await box(page, "#hero-main-action");
    const next = page.locator("#hero-next");
    const line = await box(page, "#hero-next");
    // Right under the button, before anything else, and on the first screen.
    expect(line.top - action.bottom).toBeGreaterThanOrEqual(0);
    expect(line.top - action.bottom).toBeLessThanOrEqual(12);
    expect(line.bottom).toBeLessThanOrEqual(PHONE.height);

    // The same promise as How it works' first step, and no other: every fact of the step's is
    // in the line, and every figure in the line is in the step.
    const said = await next.innerText();
    const step = await page.locator("#how-it-works li").first().innerText();
    for (const fact of language.promise) {
      expect(said, "the line under the action").toContain(fact);
      expect(step, "How it works' first step").toContain(fact);
    }
    for (const figure of said.match(/\d+/g) ?? []) expect(step).toContain(figure);

    // A link by its name to the privacy notice in the page's language, reached by keyboard;
    // small beside the main action.
    const privacy = next.getByRole("link", { name: language.privacy.name, exact: true });
    await expect(privacy).toHaveAttribute("href", language.privacy.href);
    await privacy.focus();
    await expect(privacy).toBeFocused();
    const link = await privacy.boundingBox();
    expect(link?.height).toBeGreaterThanOrEqual(24);
    expect((link?.width ?? 0) * (link?.height ?? 0)).toBeLessThan(
      (action.width * action.height) / 8,
    );
    await close();
  });

  for (const viewport of [
    { width: 320, height: 640 },
    { width: 360, height: 780 },
  ]) {
    test(`${language.path} at ${viewport.width}x${viewport.height}: the main action and the sticky bar are one line each, and keep their whole name`, async ({
      browser,
    }) => {
      const { page, close } = await phone(browser, language, { viewport });
      await page.goto(language.path);
      await page.waitForFunction(() => "__remixRouter" in window);
      const main = page.locator("#hero-main-action");
      await expect(main).toHaveAccessibleName(language.action);
      expect(await lineCount(main)).toBe(1);

      await page.locator("#how-it-works").evaluate((element) => element.scrollIntoView());
      const sticky = page.locator("#sticky-action a");
      await expect(sticky).toBeInViewport({ ratio: 1 });
      await expect(sticky).toHaveAccessibleName(language.action);
      expect(await lineCount(sticky)).toBe(1);
      // One line of a 48 px button and the bar's padding: about 70 px, not 93 as on two lines.
      expect((await box(page, "#sticky-action")).height).toBeLessThanOrEqual(72);
      await close();
    });
  }

  test(`${language.path} at 360x780: the top of the app's screen, its alert, is on the first screen`, async ({
    browser,
  }) => {
    const { page, close } = await phone(browser, language, {
      viewport: { width: 360, height: 780 },
    });
    await page.goto(language.path);
    // The words above the limit sign: the status bar and the camera alert.
    const top = await wordsOffTheFirstScreen(page, 110);
    expect(top.words.join(" ")).toContain("400");
    expect(top.off).toEqual([]);
    await close();
  });

  test(`${language.path} at 320x640: the page is at most 10 screens`, async ({ browser }) => {
    const screen = { width: 320, height: 640 };
    const { page, close } = await phone(browser, language, { viewport: screen });
    await page.goto(language.path);
    await page.waitForFunction(() => "__remixRouter" in window);
    await test.info().attach(`${language.code} 320x640 first screen`, {
      body: await page.screenshot(),
      contentType: "image/png",
    });
    const height = await fullHeight(page);
    test.info().annotations.push({
      type: "page height at 320x640",
      description: `${height} px = ${(height / screen.height).toFixed(2)} screens`,
    });
    expect(height).toBeLessThanOrEqual(10 * screen.height);
    await close();
  });

  test(`${language.path}: the offer of the other language is one row at 390 px, its close button in it`, async ({
    browser,
  }) => {
    const { page, close } = await phone(browser, language, { locale: language.other });
    await page.goto(language.path);
    const offer = page.locator("aside[data-dismissible]");
    await expect(offer).toBeVisible();
    const sentence = await box(page, "aside[data-dismissible] p");
    const button = await box(page, "aside[data-dismissible] button");
    expect(await lineCount(offer.locator("p"))).toBe(1);
    expect(await lineCount(offer.locator("a"))).toBe(1);
    // Side by side: the button's middle level with the sentence's, the offer one button tall.
    expect(
      Math.abs(button.top + button.height / 2 - (sentence.top + sentence.height / 2)),
    ).toBeLessThan(4);
    expect((await box(page, "aside[data-dismissible]")).height).toBeLessThanOrEqual(56);
    await close();
  });
}
