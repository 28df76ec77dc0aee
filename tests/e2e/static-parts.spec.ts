import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { eventsFor, uniqueSource } from "./server-log";

/**
 * Static parts (components/static-parts.ts): markup React never hydrates. Their links must behave
 * like the hydrated ones: router navigation, reported clicks, the visit's source on leads.
 */
async function hydrated(page: Page) {
  await page.waitForFunction(() => "__remixRouter" in window);
}

/** Set on the window: still there after a navigation only if the router made it. */
async function markWindow(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });
}
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

test("pages whose parts this tab has shown are client-side navigations, both ways", async ({
  page,
}) => {
  await page.goto("/");
  await hydrated(page);
  await markWindow(page);
  const footer = page.getByRole("contentinfo");
  await footer.getByRole("link", { name: "Share Darb" }).click();
  await expect(page).toHaveURL(/\/share$/);
  await footer.getByRole("link", { name: "Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator("#faq")).toBeVisible();
  expect(await sameDocument(page)).toBe(true);
  await expect(page.locator("main section[id]")).toHaveCount(10);
  await expect(page.locator("#plans").getByRole("link", { name: "Get Plus free" })).toHaveAttribute(
    "href",
    /^\/thank-you\?cta=whatsapp&plan=plus&redirect=/,
  );
  await page.goBack();
  await expect(page).toHaveURL(/\/share$/);
  await page.goForward();
  await expect(page.locator("#testimonial")).toBeVisible();
  expect(await sameDocument(page)).toBe(true);
});

test("arriving on /share, the landing page is loaded whole, since its parts are not here yet", async ({
  page,
}) => {
  await page.goto("/share");
  await hydrated(page);
  await markWindow(page);
  await page.getByRole("contentinfo").getByRole("link", { name: "Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator("main section[id]")).toHaveCount(10);
  expect(await sameDocument(page)).toBe(false);
});

test("a section link in the static footer scrolls on the same page and is reported", async ({
  page,
}) => {
  const source = uniqueSource("nav");
  await page.goto(`/?source=${source}`);
  await hydrated(page);
  await markWindow(page);
  await page.getByRole("contentinfo").getByRole("link", { name: "FAQ" }).click();
  await expect(page).toHaveURL(/#faq$/);
  await expect(page.locator("#faq-heading")).toBeInViewport();
  expect(await sameDocument(page)).toBe(true);
  await expect
    .poll(() => eventsFor(source).find((event) => event.name === "navigation_click")?.params)
    .toMatchObject({ target_section: "faq", from_path: "/" });
});

test("a lead from a static part carries the source the visit arrived with", async ({ page }) => {
  await page
    .context()
    .route(/^https:\/\/wa\.me\//, (route) =>
      route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Outside</title>" }),
    );
  const source = uniqueSource("static");
  await page.goto(`/share?source=${source}`);
  await hydrated(page);
  // The landing page's parts were rendered for a bare URL: their links carry no campaign.
  await page.getByRole("contentinfo").getByRole("link", { name: "Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await hydrated(page);
  const plan = page.locator("#plans").getByRole("link", { name: "Choose Pro" });
  await expect(plan).toHaveAttribute("href", /^\/thank-you\?cta=whatsapp&plan=pro&/);
  await plan.click();
  // Corrected at the click: the visit's campaign and its GA4 session.
  await expect(page).toHaveURL(
    new RegExp(`/thank-you\\?cta=whatsapp&source=${source}&sid=\\d{10}&plan=pro&`),
  );
  await expect
    .poll(() => eventsFor(source).find((event) => event.name === "external_link_click")?.params)
    .toMatchObject({ cta_type: "whatsapp", placement: "plan-pro" });
  await expect
    .poll(() => eventsFor(source).filter((event) => event.name === "generate_lead"))
    .toHaveLength(1);
});

test("an opened FAQ answer stays open when a hash link moves the page", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  const first = page.locator("#faq details").first();
  await first.locator("summary").click();
  await expect(first).toHaveAttribute("open", "");
  await page.getByRole("contentinfo").getByRole("link", { name: "Features" }).click();
  await expect(page).toHaveURL(/#features$/);
  await page.getByRole("contentinfo").getByRole("link", { name: "FAQ" }).click();
  await expect(page).toHaveURL(/#faq$/);
  // React was not handed the part's markup again: what the visitor opened is still open.
  await expect(first).toHaveAttribute("open", "");
});
