import type { Page } from "@playwright/test";
import { installClock } from "./clock";
import { expect, test } from "./fixtures";

/**
 * The header's share menu, its tooltips and the toaster load their code on intent
 * (docs/decisions/009-code-on-intent.md): none of it on a first visit of /, all of it in time for
 * the very first interaction, and the menu still works without JavaScript.
 */

/** The code that comes on intent, by the name esbuild gives its file. */
const ON_INTENT = /\/build\/_shared\/(tooltip|share-menu|toasts)-[A-Z0-9]+\.js$/;

async function hydrated(page: Page) {
  await page.waitForFunction(() => "__remixRouter" in window);
}

/** Every script the page asks for from now on. */
function scriptsOf(page: Page): string[] {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

test.beforeEach(async ({ page }, testInfo) => {
  if (testInfo.project.name === "mobile") await page.setViewportSize({ width: 390, height: 844 });
  // Desktop Chromium has no share sheet; make sure of it, so the menu is what opens.
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, "share", { value: undefined, configurable: true });
  });
});

test("a first visit of / loads none of it, even once idle", async ({ page }) => {
  const scripts = scriptsOf(page);
  await installClock(page);
  await page.goto("/");
  await hydrated(page);
  await page.waitForLoadState("networkidle");
  // Ten idle seconds on the page's clock: whatever waits for an idle moment or a timer has run.
  await page.clock.runFor(10_000);
  expect(scripts.length, "the page's own scripts were seen").toBeGreaterThan(5);
  expect(scripts.filter((path) => ON_INTENT.test(path))).toEqual([]);
});

test("the first press on the share button opens a working menu, copy included", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const scripts = scriptsOf(page);
  await page.goto("/");
  await hydrated(page);
  const header = page.getByRole("banner");
  // One click, straight away: the pointer arriving and the press are all the notice there is.
  await header.getByLabel("Share", { exact: true }).click();
  const menu = header.getByRole("list", { name: "Share Darb" });
  await expect(menu.getByRole("link")).toHaveCount(4);
  await expect(menu.getByRole("link").first()).toBeVisible();
  await menu.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByRole("status").getByText("Link copied")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/\?source=copy$/);
  await expect(menu).toBeHidden();
  await expect(header.getByLabel("Share", { exact: true })).toBeFocused();
  expect(scripts.filter((path) => ON_INTENT.test(path)).length).toBe(3);
});

test("the first keyboard focus shows a tooltip, and Escape closes a menu opened at once", async ({
  page,
}) => {
  await page.goto("/");
  await hydrated(page);
  const header = page.getByRole("banner");
  const share = header.getByLabel("Share", { exact: true });
  await share.focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  await expect(header.locator("[role=tooltip]:visible")).toHaveText("Share");
  await page.keyboard.press("Enter");
  const menu = header.getByRole("list", { name: "Share Darb" });
  await expect(menu).toBeVisible();
  await expect(header.locator("[role=tooltip]:visible")).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(share).toBeFocused();
});

test("the first hover on a header link names it after 700 ms", async ({ page }) => {
  test.skip(test.info().project.name === "mobile", "hover needs a mouse");
  await page.clock.install();
  await page.goto("/");
  await page.clock.runFor(2500);
  await hydrated(page);
  await page.clock.pauseAt(Date.now() + 60_000);
  const header = page.getByRole("banner");
  // The tooltip's code has not come yet: this hover is what asks for it.
  const tooltipCode = page.waitForRequest((request) =>
    /\/tooltip-[A-Z0-9]+\.js$/.test(request.url()),
  );
  await header.getByRole("link", { name: "Chat on WhatsApp" }).hover();
  await tooltipCode;
  const bubble = header.locator("[role=tooltip]:visible");
  await page.clock.runFor(650);
  await expect(bubble).toHaveCount(0);
  await page.clock.runFor(100);
  await expect(bubble).toHaveText("Chat on WhatsApp");
});

test("the closing call's share menu copies on the first try", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/");
  await hydrated(page);
  const closing = page.locator("#get-started");
  await closing.getByText("Share", { exact: true }).click();
  await closing.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByRole("status").getByText("Link copied")).toBeVisible();
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("the header's share menu opens and its links lead to the networks", async ({ page }) => {
    await page
      .context()
      .route(/^https:\/\/www\.facebook\.com\//, (route) =>
        route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Facebook</title>" }),
      );
    await page.goto("/");
    const header = page.getByRole("banner");
    await header.getByLabel("Share", { exact: true }).click();
    const menu = header.getByRole("list", { name: "Share Darb" });
    await expect(menu.getByRole("link")).toHaveCount(4);
    await expect(menu.getByRole("button")).toHaveCount(0);
    const opened = page.context().waitForEvent("page");
    await menu.getByRole("link", { name: /Facebook/ }).click();
    const tab = await opened;
    await tab.waitForLoadState();
    expect(decodeURIComponent(tab.url())).toContain("/?source=facebook");
  });
});
