import type { Page } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { expect, test } from "./fixtures";
import { eventsFor, uniqueSource } from "./server-log";

async function hydrated(page: Page) {
  await page.waitForFunction(() => "__remixRouter" in window);
}

const NETWORKS = /^Share on (Facebook|X \(Twitter\)|LinkedIn|WhatsApp)/;

test("/share offers every network as a real link and previews the message", async ({ page }) => {
  await page.goto("/share");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Share Darb with a driver you know",
  );
  const links = page.getByRole("main").getByRole("link", { name: NETWORKS });
  await expect(links).toHaveCount(4);
  for (const href of await links.evaluateAll((all) => all.map((a) => a.getAttribute("href")))) {
    expect(href).toMatch(
      /^https:\/\/(www\.facebook\.com|twitter\.com|www\.linkedin\.com|wa\.me)\//,
    );
  }
  await expect(page.getByRole("figure")).toContainText("free driving coach for Dubai");
});

test("?platform=whatsapp puts WhatsApp first and writes the message for it", async ({ page }) => {
  await page.goto("/share?platform=whatsapp");
  const first = page.getByRole("main").getByRole("link", { name: NETWORKS }).first();
  await expect(first).toHaveAccessibleName(/^Share on WhatsApp/);
  const href = decodeURIComponent((await first.getAttribute("href")) ?? "");
  expect(href).toContain("Have a look at Darb");
  expect(href).toContain("/?source=whatsapp");
  await expect(page.getByRole("figure")).toContainText("Have a look at Darb");
});

test("a network opens in a 600x400 popup and the share is counted", async ({ page }) => {
  await page
    .context()
    .route(/^https:\/\/twitter\.com\//, (route) =>
      route.fulfill({ contentType: "text/html", body: "<!doctype html><title>X</title><p>X" }),
    );
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, "share", { value: undefined, configurable: true });
  });
  const source = uniqueSource("share-page");
  await page.goto(`/share?source=${source}`);
  await hydrated(page);
  const popupOpened = page.waitForEvent("popup");
  await page.getByRole("link", { name: /^Share on X/ }).click();
  const popup = await popupOpened;
  await popup.waitForLoadState();
  expect(popup.url()).toContain("https://twitter.com/intent/tweet?text=");
  if (test.info().project.name === "desktop") {
    expect(await popup.evaluate(() => [window.innerWidth, window.innerHeight])).toEqual([600, 400]);
  }
  expect(new URL(page.url()).pathname).toBe("/share");
  await expect
    .poll(() => eventsFor(source).find((event) => event.name === "social_share")?.params)
    .toMatchObject({ method: "twitter", placement: "share-page" });
});

test("copy link confirms with a toast", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/share");
  await hydrated(page);
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByRole("status").getByText("Link copied")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/\?source=copy$/);
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("the networks still work as links and nothing needs script", async ({ page }) => {
    await page.goto("/share");
    await expect(page.getByRole("main").getByRole("link", { name: NETWORKS })).toHaveCount(4);
    await expect(page.getByRole("button", { name: "Copy link" })).toHaveCount(0);
    // The link to pass on by hand is shown as text, as people read it (host and path, no query).
    await expect(
      page.getByRole("main").getByText(new URL(baseURL).host, { exact: true }).first(),
    ).toBeVisible();
  });
});
