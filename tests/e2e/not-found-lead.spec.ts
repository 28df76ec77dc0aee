import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * A mistyped campaign link still offers the lead (WhatsApp, through
 * /thank-you) and the landing page, both carrying the visit's source, and keeps its 404.
 */

const CASES = [
  {
    language: "English",
    path: "/promo-typo",
    query: "?source=instagram",
    carried: "source=instagram",
    cta: "Download the free app",
    home: "Back to the home page",
    thankYou: "/thank-you",
    landing: "/",
  },
  {
    language: "Arabic",
    path: "/ar/typo",
    query: "?utm_source=facebook&utm_medium=cpc",
    carried: "utm_source=facebook&utm_medium=cpc",
    cta: "حمّل التطبيق مجانًا",
    home: "إلى الصفحة الرئيسية",
    thankYou: "/ar/thank-you",
    landing: "/ar",
  },
] as const;

async function lineHeight(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    const style = getComputedStyle(element);
    return Number.parseFloat(style.lineHeight);
  });
}

/** A button's text takes one line: the text's own box is one line high. */
async function expectOneLine(button: Locator) {
  const text = button.locator("span").first();
  const box = await text.boundingBox();
  expect(box, "the button's text is on screen").not.toBeNull();
  expect(box?.height).toBeLessThanOrEqual((await lineHeight(text)) + 1);
}

async function open(page: Page, url: string) {
  const response = await page.goto(url);
  expect(response?.status()).toBe(404);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    for (const c of CASES) {
      test(`${c.language}: the 404 offers WhatsApp and the landing page with the source`, async ({
        page,
        watch,
      }) => {
        watch.allowStatus(c.path, 404);
        await open(page, `${c.path}${c.query}`);
        const main = page.getByRole("main");
        const whatsapp = main.getByRole("link", { name: c.cta });
        const href = (await whatsapp.getAttribute("href")) ?? "";
        expect(href).toMatch(new RegExp(`^${c.thankYou}\\?cta=whatsapp&${c.carried}&`));
        const url = new URL(href, "http://x");
        expect(url.searchParams.get("redirect")).toMatch(/^https:\/\/wa\.me\/\d+\?text=/);
        const home = main.getByRole("link", { name: c.home });
        expect(await home.getAttribute("href")).toMatch(
          new RegExp(`^${c.landing}\\?${c.carried}$`),
        );
        await expect(main.getByRole("link", { name: /sitemap|خريطة الموقع/ })).toBeVisible();
      });
    }

    test("hostile campaign words are carried only as encoded text, never as markup or a target", async ({
      page,
      watch,
    }) => {
      for (const [path, name, value] of [
        ["/promo-typo", "source", "<script>alert(1)</script>"],
        ["/promo-typo", "source", "//evil.example"],
        ["/ar/typo", "utm_source", "javascript:alert(1)"],
        ["/promo-typo", "utm_campaign", "x&redirect=https://evil.example/"],
      ] as const) {
        watch.allowStatus(path, 404);
        await open(page, `${path}?${name}=${encodeURIComponent(value)}`);
        expect(await page.locator("script:not([src])", { hasText: "alert(1)" }).count()).toBe(0);
        const hrefs = await page
          .getByRole("main")
          .getByRole("link")
          .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
        expect(hrefs.length).toBeGreaterThanOrEqual(3);
        for (const href of hrefs) {
          // Only ever a path on this site, the word inside it encoded.
          expect(href).toMatch(/^\/[^/]/);
          expect(href).not.toMatch(/[<>"]/);
        }
        const lead = new URL(hrefs.find((href) => href.includes("cta=whatsapp")) ?? "", "http://x");
        // The word is the visit's campaign, as written; it cannot add a parameter or a target.
        expect(lead.searchParams.get(name)).toBe(value);
        expect(lead.searchParams.getAll("redirect")).toHaveLength(1);
        expect(lead.searchParams.get("redirect")).toMatch(/^https:\/\/wa\.me\//);
        const home = hrefs.find((href) => href.startsWith(path.startsWith("/ar") ? "/ar?" : "/?"));
        expect(new URL(home ?? "", "http://x").searchParams.get(name)).toBe(value);
      }
    });
  });
}

test("the Arabic 404's buttons keep their words on one line at 390 and 320 px", async ({
  page,
  watch,
}) => {
  watch.allowStatus("/ar/typo", 404);
  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 800 });
    await open(page, "/ar/typo?source=instagram");
    const main = page.getByRole("main");
    for (const name of ["حمّل التطبيق مجانًا", "إلى الصفحة الرئيسية"]) {
      const button = main.getByRole("link", { name });
      await expectOneLine(button);
      const box = await button.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
    }
  }
});

test("following the 404's WhatsApp CTA counts the lead with the campaign's source", async ({
  page,
  watch,
}) => {
  await page
    .context()
    .route(/^https:\/\/wa\.me\//, (route) =>
      route.fulfill({ contentType: "text/html", body: "<!doctype html><title>WA</title><p>WA" }),
    );
  watch.allowStatus("/promo-typo", 404);
  await open(page, "/promo-typo?source=instagram");
  await page.waitForFunction(() => "__remixRouter" in window);
  // The request itself: on a busy machine the thank-you page may hand off to WhatsApp before a
  // look at the address bar would catch it there.
  const lead = page.waitForRequest(/\/thank-you\?cta=whatsapp&source=instagram&/);
  await page.getByRole("main").getByRole("link", { name: "Download the free app" }).click();
  expect((await lead).isNavigationRequest()).toBe(true);
});
