import { expect, test } from "./fixtures";

test("the home page renders its headline, in the site's frame @wide", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("Darb: the free driving coach and navigation app for Dubai");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Drive Dubai safer");
  await expect(page.getByRole("banner")).toBeVisible();
  await expect(page.getByRole("contentinfo")).toContainText("Dubai, UAE");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
});

test("the page paints before any of its JavaScript is fetched, then hydrates", async ({ page }) => {
  await page.addInitScript(() => {
    document.addEventListener("DOMContentLoaded", () => {
      (window as unknown as { parsedHeading: Element | null }).parsedHeading =
        document.querySelector("h1");
    });
  });
  await page.goto("/");
  await page.waitForFunction(() => "__remixRouter" in window);
  const timing = await page.evaluate(() => ({
    paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
    scripts: performance
      .getEntriesByType("resource")
      .filter((entry) => /\/build\/.+\.js$/.test(entry.name))
      .map((entry) => ({
        name: entry.name,
        start: entry.startTime,
        end: (entry as PerformanceResourceTiming).responseEnd,
      })),
  }));
  expect(timing.paint).not.toBeNull();
  expect(timing.scripts.length).toBeGreaterThan(3);
  for (const script of timing.scripts) {
    expect(script.start, script.name).toBeGreaterThan(timing.paint ?? 0);
  }
  // The preloads were let go, so the modules came side by side: the browser entry, which is
  // imported only once the route modules have loaded and run, was already on its way before
  // the root route's module had arrived.
  const entry = timing.scripts.find((script) => script.name.includes("/build/entry.client-"));
  const root = timing.scripts.find((script) => script.name.includes("/build/root-"));
  expect(entry?.start).toBeLessThan(root?.end ?? 0);
  // It hydrates the server's page rather than drawing it again: the heading is the parsed one.
  const kept = await page.evaluate(() => {
    const parsed = (window as unknown as { parsedHeading: Element | null }).parsedHeading;
    return parsed instanceof HTMLHeadingElement && parsed === document.querySelector("h1");
  });
  expect(kept).toBe(true);
});

test("the skip link is the first stop and moves focus to the content", async ({ page }) => {
  await page.goto("/");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.locator("main")).toBeFocused();
});

test("an unknown path answers 404 with the not-found page and ways out", async ({
  page,
  watch,
}) => {
  watch.allowStatus("/no/such/page", 404);
  const response = await page.goto("/no/such/page?x=%3Cscript%3E");
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle(/Page not found/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This road doesn't go anywhere");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  const main = page.getByRole("main");
  await expect(main.getByRole("link", { name: "Back to the home page" })).toHaveAttribute(
    "href",
    "/",
  );
  await expect(main.getByRole("link", { name: /sitemap/i })).toHaveAttribute("href", "/sitemap");
});

test("the not-found page's sitemap link leads to a real page", async ({ page, watch }) => {
  watch.allowStatus("/nope", 404);
  await page.goto("/nope");
  await page
    .getByRole("main")
    .getByRole("link", { name: /sitemap/i })
    .click();
  await expect(page).toHaveURL(/\/sitemap$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sitemap");
});

test("a route change starts at the top of the new page", async ({ page, watch }) => {
  watch.allowStatus("/nope", 404);
  await page.setViewportSize({ width: 390, height: 320 });
  await page.goto("/nope");
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(150);
  // Client-side navigation (no document load): the footer's Sitemap link. (Home would be a
  // whole page load from here: its static parts have not been on this tab yet.)
  await page.waitForFunction(() => "__remixRouter" in window);
  await page.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });
  await page.getByRole("contentinfo").getByRole("link", { name: "Sitemap" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sitemap");
  expect(await page.evaluate(() => "__sameDocument" in window)).toBe(true);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test("the head comes once, stays through hydration, and follows a client-side navigation", async ({
  page,
}) => {
  const tags = () =>
    page.evaluate(() =>
      [...document.head.querySelectorAll("title, meta[name], meta[property], link[rel]")].map(
        (tag) => [
          tag.tagName,
          ...[...tag.attributes].map((a) => `${a.name}=${a.value}`),
          tag.textContent,
        ],
      ),
    );
  const response = await page.goto("/ar");
  const html = (await response?.text()) ?? "";
  // The hydration data leaves the head out (document/handoff.server.ts).
  const handoff = html.slice(html.indexOf("window.__remixContext"));
  expect(handoff).toContain('"countdown"');
  expect(handoff).not.toContain('"head"');
  expect(handoff).not.toContain("og:description");
  const served = await tags();
  expect(served.length).toBeGreaterThan(20);
  await page.waitForFunction(() => "__remixRouter" in window);
  // Hydration read the tags back from the <head> and rendered the same ones (no mismatch: the
  // fixture fails on console errors).
  expect(await tags()).toEqual(served);

  await page.getByRole("contentinfo").getByRole("link", { name: "خريطة الموقع" }).click();
  await expect(page).toHaveTitle("خريطة الموقع · درب");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/ar\/sitemap$/);
  await page.goBack();
  await expect(page).toHaveTitle(/^درب: /);
  await expect.poll(tags).toEqual(served);
});

test("a skeleton stands in while the next page's code loads", async ({ page }) => {
  await page.goto("/");
  await page.waitForFunction(() => "__remixRouter" in window);
  // Hold back the sitemap route's module so the loading state lasts long enough to see.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/build\/routes\/sitemap-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  // In every page (a static part), out of sight until a page is on its way.
  const skeleton = page.getByTestId("page-skeleton");
  await expect(skeleton).toBeHidden();
  await page.getByRole("contentinfo").getByRole("link", { name: "Sitemap" }).click();
  await expect(skeleton).toBeVisible();
  await expect(skeleton).toHaveAttribute("role", "status");
  release();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sitemap");
  await expect(skeleton).toBeHidden();
});

test("/healthz answers ok and is never cached", async ({ request }) => {
  const response = await request.get("/healthz");
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toBe("no-store");
  expect(await response.json()).toEqual({ status: "ok" });
});
