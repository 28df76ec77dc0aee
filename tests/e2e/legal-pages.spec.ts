import type { Page } from "@playwright/test";
import { openThankYouAndStay } from "./clock";
import { SAMPLE_COMPANY } from "./company";
import { expect, test } from "./fixtures";

/**
 * The privacy notice and the terms: reached from every page's footer in the page's
 * language, and showing the company the server is set with (playwright.config.ts's COMPANY_*).
 */
const LANGUAGES = [
  {
    prefix: "",
    privacy: "Privacy",
    terms: "Terms",
    headings: { privacy: "Privacy notice", terms: "Terms" },
    licence: "Trade licence no.",
    legalLinks: "Privacy and terms",
    stay: "Stay on this page",
  },
  {
    prefix: "/ar",
    privacy: "الخصوصية",
    terms: "الشروط",
    headings: { privacy: "إشعار الخصوصية", terms: "الشروط" },
    licence: "رخصة تجارية رقم",
    legalLinks: "الخصوصية والشروط",
    stay: "البقاء في هذه الصفحة",
  },
] as const;

async function hydrated(page: Page) {
  await page.waitForFunction(() => "__remixRouter" in window);
}

for (const language of LANGUAGES) {
  const { prefix, headings } = language;

  test(`${prefix || "/"}: the footer's links reach the privacy notice and the terms, in the page's language`, async ({
    page,
  }) => {
    await page.goto(`${prefix}/share`);
    await hydrated(page);
    const footer = page.getByRole("contentinfo");
    await footer.getByRole("link", { name: language.privacy, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${prefix}/privacy$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(headings.privacy);
    await expect(page.locator("html")).toHaveAttribute("lang", prefix ? "ar" : "en");
    await footer.getByRole("link", { name: language.terms, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${prefix}/terms$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(headings.terms);
    // The terms link back to the notice, in the same language.
    await page.locator("#privacy").getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`${prefix}/privacy$`));
  });

  test(`${prefix || "/"}: the footer names the company from the settings, and the pages do too`, async ({
    page,
  }) => {
    await page.goto(prefix || "/");
    const footer = page.getByRole("contentinfo");
    await expect(footer).toContainText(SAMPLE_COMPANY.COMPANY_NAME);
    // The number beside its label, joined by a no-break space.
    await expect(footer).toContainText(
      new RegExp(`${language.licence}\\s${SAMPLE_COMPANY.COMPANY_LICENCE}`),
    );
    await expect(footer).toContainText(SAMPLE_COMPANY.COMPANY_ADDRESS);
    await page.goto(`${prefix}/terms`);
    const who = page.locator("#who");
    for (const value of Object.values(SAMPLE_COMPANY)) await expect(who).toContainText(value);
  });

  for (const page of ["privacy", "terms"] as const) {
    test(`${prefix}/${page} on a phone, kept with the test results`, async ({
      page: tab,
    }, testInfo) => {
      await tab.goto(`${prefix}/${page}`);
      await hydrated(tab);
      // Everything laid out, the footer included, as a visitor's scrolling does.
      await tab.evaluate(() => document.documentElement.setAttribute("data-render-all", ""));
      await expect(tab.getByRole("heading", { level: 1 })).toHaveText(headings[page]);
      // One column that fits the phone: nothing runs off its side.
      expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        tab.viewportSize()?.width ?? 0,
      );
      await testInfo.attach(`${prefix.slice(1) || "en"}-${page}`, {
        body: await tab.screenshot({ fullPage: true }),
        contentType: "image/png",
      });
    });
  }
}

for (const language of LANGUAGES) {
  const { prefix, headings } = language;
  test(`${prefix || "/"}: the thank-you page links to the privacy notice and the terms, below the hand-off`, async ({
    page,
  }) => {
    await openThankYouAndStay(page, `${prefix}/thank-you?cta=whatsapp`, language.stay);
    const links = page.getByRole("navigation", { name: language.legalLinks });
    await expect(links.getByRole("link", { name: language.terms, exact: true })).toHaveAttribute(
      "href",
      `${prefix}/terms`,
    );
    await links.getByRole("link", { name: language.privacy, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${prefix}/privacy$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(headings.privacy);
  });
}

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("the footer's links are plain links that load the pages", async ({ page }) => {
    await page.goto("/ar");
    await page.getByRole("contentinfo").getByRole("link", { name: "الشروط", exact: true }).click();
    await expect(page).toHaveURL(/\/ar\/terms$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("الشروط");
  });

  test("a thank-you page with nothing to hand off links to them too", async ({ page }) => {
    await page.goto("/thank-you");
    const links = page.getByRole("navigation", { name: "Privacy and terms" });
    await links.getByRole("link", { name: "Terms", exact: true }).click();
    await expect(page).toHaveURL(/\/terms$/);
  });
});
