import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { watchNavigations } from "./navigations";
import { eventsFor, uniqueSource } from "./server-log";

/**
 * The header in both languages: its layout on tablets and desktops, the phone menu (backdrop,
 * call to action), the order of its contact routes, and the language switch keeping a visit's
 * campaign with JavaScript off.
 */
const isMobile = () => test.info().project.name === "mobile";

const LANGUAGES = {
  en: {
    home: "/",
    menu: "Menu",
    closeMenu: "Close menu",
    nav: "Main",
    cta: "Get the app on WhatsApp",
    whatsapp: "Chat on WhatsApp",
    email: "E-mail us",
    other: "العربية",
    otherHome: "/ar",
    heroCta: "Get the app on WhatsApp",
  },
  ar: {
    home: "/ar",
    menu: "القائمة",
    closeMenu: "إغلاق القائمة",
    nav: "القائمة الرئيسية",
    cta: "احصل على التطبيق عبر واتساب",
    whatsapp: "تحدّث معنا على واتساب",
    email: "راسلنا بالبريد الإلكتروني",
    other: "English",
    otherHome: "/",
    heroCta: "احصل على التطبيق عبر واتساب",
  },
} as const;

async function hydrated(page: Page) {
  await page.waitForFunction(() => "__remixRouter" in window);
}

/** Chromium here has no network: WhatsApp answers with a stand-in page. */
async function stubWhatsApp(page: Page) {
  await page
    .context()
    .route(/^https:\/\/wa\.me\//, (route) =>
      route.fulfill({ contentType: "text/html", body: "<!doctype html><title>WhatsApp</title>" }),
    );
}

type Box = { name: string; x: number; y: number; width: number; height: number };

/** Every control in the header bar a visitor can see now, with its name and box. */
async function visibleHeaderItems(page: Page): Promise<Box[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll("body > header :is(a[href], button, summary)")]
      .filter((element) => element.checkVisibility({ checkVisibilityCSS: true }))
      .map((element) => {
        const { x, y, width, height } = element.getBoundingClientRect();
        const name = (element.getAttribute("aria-label") ?? element.textContent ?? "").trim();
        return { name: name || element.outerHTML.slice(0, 60), x, y, width, height };
      })
      .filter((box) => box.width > 0 && box.height > 0),
  );
}

const overlap = (a: Box, b: Box) =>
  Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 0.5 &&
  Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 0.5;

test.describe("the header on tablets and desktops @wide", () => {
  // Sizes set here, in one project: the mobile project emulates a phone, not a wide screen.
  test.skip(() => isMobile(), "widths set by the test itself");

  for (const width of [768, 1024, 1280]) {
    for (const [locale, words] of Object.entries(LANGUAGES)) {
      test(`at ${width} px in ${locale}, every item is on screen and none overlaps another`, async ({
        page,
      }) => {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(words.home);
        await hydrated(page);
        const items = await visibleHeaderItems(page);
        const names = items.map((item) => item.name);
        // The logo, the language switch, both contact routes and the share button, always.
        for (const name of [words.whatsapp, words.email, words.other]) {
          expect(names, name).toContain(name);
        }
        // The sections are one tap away: in the bar when it has room, else behind the menu.
        const sections = await page
          .getByRole("navigation", { name: words.nav })
          .getByRole("link")
          .all();
        const navShown = await Promise.all(sections.map((link) => link.isVisible()));
        if (width >= 1024) expect(navShown.every(Boolean), "nav links in the bar").toBe(true);
        else await expect(page.getByRole("button", { name: words.menu })).toBeVisible();

        const header = await page.locator("body > header").boundingBox();
        for (const item of items) {
          expect(item.x, `${item.name} starts on screen`).toBeGreaterThanOrEqual(0);
          expect(item.x + item.width, `${item.name} ends on screen`).toBeLessThanOrEqual(width);
          // Inside the bar: a label that wraps onto three lines sticks out of it.
          expect(item.y, `${item.name} inside the bar`).toBeGreaterThanOrEqual(header?.y ?? 0);
          expect(item.y + item.height, `${item.name} inside the bar`).toBeLessThanOrEqual(
            (header?.y ?? 0) + (header?.height ?? 0),
          );
        }
        for (const [i, a] of items.entries()) {
          for (const b of items.slice(i + 1)) {
            expect(overlap(a, b), `${a.name} overlaps ${b.name}`).toBe(false);
          }
        }
      });
    }
  }
});

// "@phone": the menu exists below 1024 px; the desktop project leaves these out.
test.describe("the phone menu @phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const [locale, words] of Object.entries(LANGUAGES)) {
    test(`in ${locale}: a backdrop dims the page and a tap on it closes the menu`, async ({
      page,
    }) => {
      const seen = await watchNavigations(page);
      await page.goto(words.home);
      await hydrated(page);
      await page.getByRole("button", { name: words.menu }).click();
      const nav = page.getByRole("navigation", { name: words.nav });
      await expect(nav).toBeVisible();
      // The sheet slides in: measured mid-slide, "beside it" could be under it a moment later.
      await nav.evaluate((element) =>
        Promise.all(element.getAnimations().map((animation) => animation.finished)),
      );
      const sheet = await nav.boundingBox();
      const bar = await page.locator("body > header").boundingBox();
      // The hero's first call to action runs the width of the screen, so part of it is beside
      // the sheet: the tap on the backdrop there must not reach it.
      const link = await page
        .locator("#hero")
        .getByRole("link", { name: words.heroCta })
        .boundingBox();
      if (!sheet || !bar || !link) throw new Error("no menu sheet or hero link");
      // Beside the sheet: left of it in Arabic, right of it in English.
      const beside = {
        x: locale === "ar" ? sheet.x / 2 : (sheet.x + sheet.width + 390) / 2,
        y: link.y + link.height / 2,
      };
      expect(beside.x, "the hero link reaches beside the sheet").toBeGreaterThan(link.x);
      expect(beside.x).toBeLessThan(link.x + link.width);
      expect(beside.y, "the hero link is on screen").toBeLessThan(844);
      const cover = await page.evaluate(
        ({ x, y, barBottom }) => {
          const element = document.elementFromPoint(x, y) as HTMLElement | null;
          if (!element) return null;
          const box = element.getBoundingClientRect();
          return {
            inPage: !!element.closest("main, footer"),
            hidden: element.closest("[aria-hidden=true]") !== null,
            focusable: element.tabIndex >= 0,
            background: getComputedStyle(element).backgroundColor,
            covers: box.left <= 0 && box.right >= 390 && box.top <= barBottom && box.bottom >= 844,
          };
        },
        { ...beside, barBottom: bar.y + bar.height },
      );
      expect(cover, "something covers the page beside the sheet").not.toBeNull();
      expect(cover?.inPage, "the page itself is under the backdrop").toBe(false);
      expect(cover?.covers, "the backdrop covers the page below the bar").toBe(true);
      expect(cover?.hidden, "hidden from assistive technology").toBe(true);
      expect(cover?.focusable, "not focusable").toBe(false);
      expect(cover?.background, "it dims").not.toMatch(/^rgba\(.*, 0\)$|transparent/);
      // The open menu and its backdrop (the rest of the page has its own checks).
      const axe = await new AxeBuilder({ page }).include("body > header").analyze();
      expect(axe.violations.map((violation) => violation.id)).toEqual([]);

      const before = page.url();
      const followed: string[] = [];
      page.on("request", (request) => {
        if (request.isNavigationRequest()) followed.push(request.url());
      });
      // Where the tap's click lands: the link it lands in, if any; or that the page has gone.
      const clicks = () =>
        page
          .evaluate(
            () =>
              (window as unknown as { __clicks?: (string | null)[] }).__clicks ?? "another page",
          )
          .catch(() => "another page");
      await page.evaluate(() => {
        const landed: (string | null)[] = [];
        Object.assign(window, { __clicks: landed });
        window.addEventListener(
          "click",
          (event) => landed.push((event.target as Element).closest("a")?.href ?? null),
          true,
        );
      });
      const beforeTap = await seen();
      await page.touchscreen.tap(beside.x, beside.y);
      await expect(nav).toBeHidden();
      // Once the tap's click has come, a link's navigation would have started inside it.
      await expect.poll(clicks).not.toEqual([]);
      expect(await clicks(), "the tap's click landed on the backdrop").toEqual([null]);
      expect(await seen(), "the tap did not follow the link beneath").toEqual(beforeTap);
      expect(followed, "the tap did not follow the link beneath").toEqual([]);
      expect(page.url(), "the tap did not follow the link beneath").toBe(before);
    });

    test(`in ${locale}: the menu leads to WhatsApp as a counted lead`, async ({ page }) => {
      await stubWhatsApp(page);
      const source = uniqueSource(`menu-${locale}`);
      await page.goto(`${words.home}?source=${source}`);
      await hydrated(page);
      await page.getByRole("button", { name: words.menu }).click();
      const cta = page
        .getByRole("navigation", { name: words.nav })
        .getByRole("link", { name: words.cta });
      await expect(cta).toBeVisible();
      const thankYou = locale === "ar" ? "/ar/thank-you" : "/thank-you";
      await expect(cta).toHaveAttribute(
        "href",
        new RegExp(
          `^${thankYou}\\?cta=whatsapp&source=${source}&redirect=https%3A%2F%2Fwa\\.me%2F`,
        ),
      );
      await cta.click();
      await expect(page).toHaveURL(new RegExp(`${thankYou}\\?cta=whatsapp&source=${source}&`));
      await expect
        .poll(() =>
          eventsFor(source)
            .filter((event) => event.name === "external_link_click")
            .map((event) => [event.params.placement, event.params.cta_type]),
        )
        .toEqual([["menu", "whatsapp"]]);
    });

    test(`in ${locale}: WhatsApp comes before e-mail in the header`, async ({ page }) => {
      await page.goto(words.home);
      const header = page.locator("body > header");
      const whatsapp = header.getByRole("link", { name: words.whatsapp });
      const email = header.getByRole("link", { name: words.email });
      const first = await whatsapp.evaluate(
        (element, other) =>
          !!(element.compareDocumentPosition(other as Node) & Node.DOCUMENT_POSITION_FOLLOWING),
        await email.elementHandle(),
      );
      expect(first, "WhatsApp first in the document").toBe(true);
      const [w, e] = [await whatsapp.boundingBox(), await email.boundingBox()];
      if (!w || !e) throw new Error("contact links not on screen");
      // First in reading order: left of it in English, right of it in Arabic.
      if (locale === "ar") expect(w.x).toBeGreaterThan(e.x);
      else expect(w.x).toBeLessThan(e.x);
    });
  }
});

test.describe("the language switch without JavaScript @wide", () => {
  test.use({ javaScriptEnabled: false });

  const CAMPAIGN = "source=instagram&utm_medium=paid&utm_campaign=ramadan";

  for (const [locale, words] of Object.entries(LANGUAGES)) {
    test(`from ${locale}, keeps the campaign, and the next lead counts it`, async ({ page }) => {
      await stubWhatsApp(page);
      // Junk and unknown parameters are dropped; free text is carried safely encoded.
      const start = locale === "ar" ? "/ar/" : "/";
      await page.goto(`${start}?${CAMPAIGN}&utm_content=spring%20sale%26more&fbclid=Ab_1-2&x=drop`);
      // On a phone the header's switch is in the menu, which needs JavaScript: the footer's.
      const where = isMobile() ? page.getByRole("contentinfo") : page.locator("body > header");
      await where.getByRole("link", { name: words.other }).click();
      const landed = new URL(page.url());
      expect(landed.pathname).toBe(words.otherHome);
      expect(landed.search).toBe(`?${CAMPAIGN}&utm_content=spring+sale%26more&fbclid=Ab_1-2`);

      const lead = page
        .locator("#hero")
        .getByRole("link", { name: LANGUAGES[other(locale)].heroCta });
      // Through /thank-you, which without JavaScript moves on at once: its request is the trace.
      const thankYou = page.waitForRequest(/\/thank-you\?cta=whatsapp&source=instagram&/);
      await lead.click();
      await thankYou;
    });
  }

  test.describe("for a reader of the other language", () => {
    test.use({ locale: "ar-AE" });

    test("the language offer keeps the campaign too", async ({ page }) => {
      await page.goto(`/share?${CAMPAIGN}`);
      await page
        .getByRole("complementary")
        .getByRole("link", { name: "التبديل إلى العربية" })
        .click();
      expect(new URL(page.url()).pathname).toBe("/ar/share");
      expect(new URL(page.url()).search).toBe(`?${CAMPAIGN}`);
    });
  });
});

function other(locale: string): keyof typeof LANGUAGES {
  return locale === "ar" ? "en" : "ar";
}

test.describe("the render cache", () => {
  // HTTP requests only: the phone project's run is enough.

  /** The language links of a page as the server sends it to one visitor. */
  async function languageLinks(request: APIRequestContext, path: string) {
    const html = await (await request.get(path)).text();
    return (html.match(/<a\b[^>]*>/g) ?? [])
      .filter((tag) => /\shreflang=/i.test(tag))
      .map((tag) => (/\shref="([^"]*)"/.exec(tag)?.[1] ?? "").replaceAll("&amp;", "&"));
  }

  test("never hands one visitor's campaign to another", async ({ request }) => {
    const tag = uniqueSource("cache");
    const visits = [
      `/?source=${tag}&utm_content=one`,
      `/?source=${tag}&utm_content=two`,
      `/?source=${tag}-b&utm_content=one`,
      `/?source=${tag}&utm_content=one&gclid=first`,
      `/?source=${tag}&utm_content=one&gclid=second`,
      `/?source=${tag}`,
    ];
    // Twice over: the second round is what the cache serves.
    for (const round of [1, 2]) {
      for (const path of visits) {
        const links = await languageLinks(request, path);
        expect(links.length, `${path}, round ${round}`).toBeGreaterThan(0);
        for (const href of links) {
          expect(href, `${path}, round ${round}`).toBe(`/ar${path.slice(1)}`);
        }
      }
    }
  });
});
