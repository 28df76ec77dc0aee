import type { Locator, Page } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { expect, test } from "./fixtures";

/**
 * Sharing is WhatsApp-first by default, each network shows its own mark, and
 * /share shows a clean, unbroken link while the copied one keeps its source.
 */

const LANGUAGES = [
  {
    language: "English",
    home: "/",
    share: "/share",
    button: "Share",
    menu: "Share Darb",
    whatsapp: /WhatsApp/,
    copy: "Copy link",
    copied: "Link copied",
  },
  {
    language: "Arabic",
    home: "/ar",
    share: "/ar/share",
    button: "شارك",
    menu: "شارك درب",
    whatsapp: /واتساب/,
    copy: "نسخ الرابط",
    copied: "تم نسخ الرابط",
  },
] as const;

async function hydrated(page: Page) {
  await page.waitForFunction(() => "__remixRouter" in window);
}

/** The sprite symbol each link's icon draws. */
async function iconsOf(links: Locator): Promise<string[]> {
  return links.evaluateAll((all) =>
    all.map((link) => link.querySelector("svg use")?.getAttribute("href") ?? "none"),
  );
}

async function expectOneMarkEach(links: Locator) {
  const icons = await iconsOf(links);
  expect(icons).toHaveLength(4);
  expect(icons).not.toContain("none");
  expect(new Set(icons).size).toBe(4);
  // Every mark is drawn in the page's sprite.
  for (const icon of icons) await expect(links.page().locator(`symbol${icon}`)).toHaveCount(1);
}

test.beforeEach(async ({ page }, testInfo) => {
  if (testInfo.project.name === "mobile") await page.setViewportSize({ width: 390, height: 844 });
  // Desktop Chromium has no share sheet; make sure of it, so the menu is what opens.
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, "share", { value: undefined, configurable: true });
  });
});

for (const l of LANGUAGES) {
  test(`${l.language}: the header's share menu puts WhatsApp first, each network with its mark`, async ({
    page,
  }) => {
    await page.goto(l.home);
    await hydrated(page);
    const header = page.getByRole("banner");
    await header.getByLabel(l.button, { exact: true }).click();
    const links = header.getByRole("list", { name: l.menu }).getByRole("link");
    await expect(links).toHaveCount(4);
    await expect(links.first()).toHaveAccessibleName(l.whatsapp);
    await expect(links.first()).toBeVisible();
    await expectOneMarkEach(links);
  });

  test(`${l.language}: /share puts WhatsApp first, each network with its mark`, async ({
    page,
  }) => {
    await page.goto(l.share);
    const links = page.getByRole("main").getByRole("list").first().getByRole("link");
    await expect(links).toHaveCount(4);
    await expect(links.first()).toHaveAccessibleName(l.whatsapp);
    await expectOneMarkEach(links);
  });

  test(`${l.language}: /share shows a clean link on one line and copies it with its source`, async ({
    page,
    context,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const shown = `${new URL(baseURL).host}${l.home === "/" ? "" : l.home}`;
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto(l.share);
      await hydrated(page);
      const link = page.getByRole("main").getByText(shown, { exact: true }).first();
      await expect(link).toBeVisible();
      await expect(page.getByRole("main")).not.toContainText("source=");
      const [height, lineHeight, right] = await link.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return [box.height, Number.parseFloat(getComputedStyle(element).lineHeight), box.right];
      });
      expect(height, "the shown link is one line").toBeLessThanOrEqual(lineHeight + 1);
      expect(right).toBeLessThanOrEqual(width);
    }
    await page.getByRole("button", { name: l.copy }).click();
    await expect(page.getByRole("status").getByText(l.copied)).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(`${baseURL}${l.home}?source=copy`);
  });
}

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("the menu and /share are WhatsApp-first links, and the shown link is clean", async ({
    page,
  }) => {
    await page.goto("/share");
    const links = page.getByRole("main").getByRole("list").first().getByRole("link");
    await expect(links.first()).toHaveAccessibleName(/WhatsApp/);
    await expect(page.getByRole("main").getByText(new URL(baseURL).host).first()).toBeVisible();
    await expect(page.getByRole("main")).not.toContainText("source=");
    // The menu is closed: its links are there, but hidden until it opens.
    const menu = page.locator("header details ul a");
    expect(await menu.first().getAttribute("href")).toMatch(/^https:\/\/wa\.me\//);
  });
});
