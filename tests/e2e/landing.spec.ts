import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { openThankYouAndStay } from "./clock";
import { expect, test } from "./fixtures";
import { textAsRead } from "./page-text";

const SECTIONS = [
  "hero",
  "how-it-works",
  "features",
  "safety-results",
  "plans",
  "testimonial",
  "trust",
  "download",
  "faq",
  "get-started",
];
const NAV = [
  ["How It Works", "how-it-works"],
  ["Features", "features"],
  ["App Plans", "plans"],
  ["Download App", "download"],
  ["FAQ", "faq"],
] as const;

const isMobile = () => test.info().project.name === "mobile";

/** Clicks the page on whichever side of `element` has more room (the menu sheet's other side). */
async function clickBeside(page: Page, element: Locator) {
  // Measured where it comes to rest: the sheet slides in for 200 ms, and "visible" holds from
  // its first frame, so a box taken mid-slide puts "beside" where the sheet is about to be.
  await element.evaluate((node) =>
    Promise.all(node.getAnimations().map((animation) => animation.finished)),
  );
  const box = await element.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  if (!box) throw new Error("clickBeside: the element is not on screen");
  const roomAfter = width - (box.x + box.width);
  const x = roomAfter > box.x ? box.x + box.width + roomAfter / 2 : box.x / 2;
  await page.mouse.click(x, box.y + box.height / 2);
}

async function hydrated(page: Page) {
  await page.waitForFunction(() => "__remixRouter" in window);
}

test("the twelve sections stand in the spec's order", async ({ page }) => {
  await page.goto("/");
  const order = await page.evaluate(() =>
    // Sections sit in main, some inside static parts' wrappers (components/static-parts.ts).
    [...document.querySelectorAll("body > header, main section, footer")].map(
      (element) => element.id || element.tagName.toLowerCase(),
    ),
  );
  expect(order).toEqual(["header", ...SECTIONS, "footer"]);
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
});

/** The download note's year: that of the next 15 June after today in Dubai (UTC+4). */
function deadlineYear(now = Date.now()): number {
  const dubai = new Date(now + 4 * 3_600_000);
  const passed = dubai.getUTCMonth() > 5 || (dubai.getUTCMonth() === 5 && dubai.getUTCDate() >= 15);
  return dubai.getUTCFullYear() + (passed ? 1 : 0);
}

test("every claim of the spec is on the page", async ({ page }) => {
  await page.goto("/");
  const text = (await textAsRead(page.locator("main"))).replace(/\s+/g, " ");
  for (const claim of [
    "AI-powered safety coaching",
    "Real-time alerts",
    "Route optimisation",
    "Post-drive analytics",
    "up to 25%",
    "Limited beta",
    `Download before 15 June ${deadlineYear()} for lifetime premium features and priority cashback processing.`,
    "47 Dubai drivers already use Darb",
    "Rated 4.8 from 47 ratings",
    "AED 149",
    "AED 299",
    "Free",
  ]) {
    expect(text.toLowerCase(), claim).toContain(claim.toLowerCase());
  }
  await expect(page.locator("#faq details")).toHaveCount(7);
});

test("the header's anchors bring each section into view @wide", async ({ page }) => {
  // Smooth scrolling is the site's; the test waits for where it ends, not for the animation.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/");
  await hydrated(page);
  for (const [label, id] of NAV) {
    if (isMobile()) await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label }).click();
    await expect(page).toHaveURL(new RegExp(`#${id}$`));
    await expect(page.locator(`#${id} h2`)).toBeInViewport();
    // Not hidden under the sticky header.
    const top = await page
      .locator(`#${id}`)
      .evaluate((element) => element.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
  }
});

async function isInViewport(locator: Locator): Promise<boolean> {
  return locator.evaluate(
    (element) =>
      new Promise<boolean>((resolve) => {
        const observer = new IntersectionObserver(([entry]) => {
          observer.disconnect();
          resolve(entry?.isIntersecting ?? false);
        });
        observer.observe(element);
      }),
  );
}

/** What `measure` reads once it reads the same three times running: scrolling has stopped. */
async function settled(
  page: Page,
  measure: () => Promise<number>,
  { scripts = true } = {},
): Promise<number> {
  // First the browser's own word that the scroll is over: `scrollend`, or no scroll event for
  // 300 ms (a scroll that had ended before this was asked sends neither). Only where the page
  // runs scripts: without, a timer set in it never fires.
  if (scripts)
    await page.evaluate(
      () =>
        new Promise<void>((done) => {
          let timer = setTimeout(finish, 300);
          function finish() {
            removeEventListener("scroll", onScroll);
            removeEventListener("scrollend", finish);
            done();
          }
          function onScroll() {
            clearTimeout(timer);
            timer = setTimeout(finish, 300);
          }
          addEventListener("scroll", onScroll, { passive: true });
          addEventListener("scrollend", finish);
        }),
    );
  let last = Number.NaN;
  let still = 0;
  // Then the same value three times running: on a loaded machine a smooth scroll can skip a
  // frame between two readings and look still for one of them.
  await expect
    .poll(
      async () => {
        const value = await measure();
        still = value === last ? still + 1 : 0;
        last = value;
        return still >= 2;
      },
      { intervals: [100] },
    )
    .toBe(true);
  return last;
}

/** Where `#id` sits under the sticky header once scrolling has stopped. */
async function settledTop(page: Page, id: string, options?: { scripts: boolean }) {
  const top = await settled(
    page,
    () =>
      page.locator(`#${id}`).evaluate((element) => Math.round(element.getBoundingClientRect().top)),
    options,
  );
  const header = await page
    .locator("body > header")
    .evaluate((element) => Math.round(element.getBoundingClientRect().bottom));
  return top - header;
}

test("sections below the first screen wait to be laid out until they near it", async ({ page }) => {
  await page.goto("/");
  // What is skipped is a section's content, not its box.
  const laidOut = (id: string) =>
    page
      .locator(`#${id}-heading`)
      .evaluate((element) => element.checkVisibility({ contentVisibilityAuto: true }));
  expect(await laidOut("hero")).toBe(true);
  expect(await laidOut("faq")).toBe(false);
  await page.locator("#faq").scrollIntoViewIfNeeded();
  await expect.poll(() => laidOut("faq")).toBe(true);
});

test("each section's stand-in height is within a third of its real height, in both languages @wide", async ({
  page,
}) => {
  for (const path of ["/", "/ar"]) {
    await page.goto(path);
    // Laid out for real, as before a jump.
    await page.evaluate(() => document.documentElement.setAttribute("data-render-all", ""));
    const sections = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("section.render-when-near")].map((section) => {
        const style = getComputedStyle(section);
        const real =
          section.getBoundingClientRect().height -
          Number.parseFloat(style.paddingTop) -
          Number.parseFloat(style.paddingBottom);
        const estimate = Number.parseFloat(style.containIntrinsicHeight.replace("auto", ""));
        return { id: section.id, real: Math.round(real), estimate: Math.round(estimate) };
      }),
    );
    expect(sections).toHaveLength(8);
    for (const { id, real, estimate } of sections) {
      expect(
        Math.abs(estimate - real) / real,
        `${path}#${id}: ${estimate} px for ${real} px`,
      ).toBeLessThan(1 / 3);
    }
  }
});

test("a smooth scroll to each section lands it right under the header @wide", async ({ page }) => {
  // Sections not yet laid out stand in at an estimated height; a smooth scroll passing them
  // would end off its target unless every one is laid out before it starts.
  await page.emulateMedia({ reducedMotion: "no-preference" });
  for (const [label, id] of NAV) {
    await page.goto("/");
    await hydrated(page);
    if (isMobile()) await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label }).click();
    await expect(page).toHaveURL(new RegExp(`#${id}$`));
    expect(Math.abs(await settledTop(page, id)), id).toBeLessThanOrEqual(1);
  }
});

test("a new page starts at its top, and Back puts the visitor where they were, at once", async ({
  page,
}) => {
  await page.emulateMedia({ reducedMotion: "no-preference" });
  await page.goto("/");
  await hydrated(page);
  const sitemap = page.locator("footer").getByRole("link", { name: "Sitemap" });
  // Down the page a screen at a time, as a visitor reads it.
  for (let screens = 0; screens < 30 && !(await isInViewport(sitemap)); screens++) {
    await page.keyboard.press("PageDown");
  }
  await expect(sitemap).toBeInViewport();
  // Keyboard scrolling glides: wait until the page is still.
  const where = await settled(page, () => page.evaluate(() => Math.round(window.scrollY)));
  expect(where).toBeGreaterThan(3000);
  // Every position the page takes, frame by frame: no glide through the page either way.
  const positions = () =>
    page.evaluate(() => {
      const seen: number[] = [Math.round(window.scrollY)];
      (window as unknown as { seen: number[] }).seen = seen;
      const frame = () => {
        const y = Math.round(window.scrollY);
        if (seen.at(-1) !== y) seen.push(y);
        if (seen.length < 50) requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
  // Read after two frames, so the frame loop has recorded where the page is now.
  const seen = () =>
    page.evaluate(
      () =>
        new Promise<number[]>((resolve) =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() => resolve((window as unknown as { seen: number[] }).seen)),
          ),
        ),
    );

  await positions();
  await sitemap.click();
  await expect(page).toHaveURL(/\/sitemap$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  // At most one step between: where the short page first cut the long one's position off.
  const down = await seen();
  expect(down[0]).toBe(where);
  expect(down.at(-1)).toBe(0);
  expect(down.length).toBeLessThanOrEqual(3);

  await positions();
  await page.goBack();
  await expect(page.locator("#hero")).toBeVisible();
  await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(where);
  expect(await seen()).toEqual([0, where]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a link to a section, and a page opened at one, land it under the header @wide", async ({
    page,
  }) => {
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await page.goto("/#faq");
    expect(Math.abs(await settledTop(page, "faq", { scripts: false }))).toBeLessThanOrEqual(1);
    await page.goto("/");
    await page.locator("footer").getByRole("link", { name: "App Plans" }).click();
    await expect(page).toHaveURL(/#plans$/);
    expect(Math.abs(await settledTop(page, "plans", { scripts: false }))).toBeLessThanOrEqual(1);
  });
});

// The menu collapses under 768 px: "@phone" tests run in the mobile project only.
test.describe("the mobile menu @phone", () => {
  test("opens, closes on a chosen link, on Escape and outside, and gives focus back", async ({
    page,
  }) => {
    await page.goto("/");
    await hydrated(page);
    const button = page.getByRole("button", { name: "Menu" });
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(button).toHaveAttribute("aria-controls", "site-nav");

    await button.click();
    const close = page.getByRole("button", { name: "Close menu" });
    await expect(close).toHaveAttribute("aria-expanded", "true");
    await expect(nav).toBeVisible();
    await nav.getByRole("link", { name: "FAQ" }).click();
    await expect(nav).toBeHidden();
    await expect(page).toHaveURL(/#faq$/);

    await button.click();
    await expect(nav).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(nav).toBeHidden();
    await expect(button).toBeFocused();

    // A click on the page beside the sheet closes it.
    await button.click();
    await expect(nav).toBeVisible();
    await clickBeside(page, nav);
    await expect(nav).toBeHidden();
  });
});

test.describe("the mobile menu without JavaScript @phone", () => {
  test.use({ javaScriptEnabled: false });

  test("is a link to the footer's navigation", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("link", { name: "Menu" }).click();
    await expect(page).toHaveURL(/#footer-nav$/);
    await expect(
      page.locator("#footer-nav").getByRole("link", { name: "App Plans" }),
    ).toBeInViewport();
  });
});

test("the countdown ticks every second from the numbers the server sent", async ({
  page,
  request,
}) => {
  const html = await (await request.get("/")).text();
  expect(html).toMatch(/data-unit="secs"[^>]*>00</);
  await page.goto("/");
  await hydrated(page);
  const seconds = page.locator("[data-unit=secs]");
  await expect(seconds).toHaveText(/^\d\d$/);
  const first = await seconds.textContent();
  await expect(seconds).not.toHaveText(first ?? "", { timeout: 2000 });
});

test("copy link confirms with a toast", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, "share", { value: undefined, configurable: true });
  });
  await page.goto("/");
  await hydrated(page);
  const closing = page.locator("#get-started");
  await closing.getByText("Share", { exact: true }).click();
  await closing.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByRole("status").getByText("Link copied")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/\?source=copy$/);
});

test("the header's icon-only links name themselves in tooltips, 700 ms late, then at once for a neighbour @wide", async ({
  page,
}) => {
  // The page's clock, not the test's: the delays hold however busy the machine is.
  await page.clock.install();
  await page.goto("/");
  // Hydration waits for an idle moment, which the paused clock has to let happen.
  await page.clock.runFor(2500);
  await hydrated(page);
  const header = page.getByRole("banner");
  const email = header.getByRole("link", { name: "E-mail us" });
  const chat = header.getByRole("link", { name: "Chat on WhatsApp" });
  // From here the page's time moves only when the test says so.
  await page.clock.pauseAt(Date.now() + 60_000);
  // The bubble is aria-hidden (the link already carries the name), so find it by its role attribute.
  const bubble = header.locator("[role=tooltip]:visible");
  // The tooltip's code loads on the first hover (code on intent), on the machine's time, not the
  // page's: let it come, the page's time moving a little at a time until a bubble says it has.
  await chat.hover();
  await expect
    .poll(async () => {
      await page.clock.runFor(100);
      return bubble.count();
    })
    .toBe(1);
  await page.mouse.move(0, 400);
  await expect(bubble).toHaveCount(0);
  // Past the moment in which a neighbour's bubble opens at once.
  await page.clock.runFor(1000);
  await email.hover();
  // Not at once: a pointer passing over the header must not flash bubbles.
  await page.clock.runFor(650);
  await expect(bubble).toHaveCount(0);
  await page.clock.runFor(100);
  await expect(bubble).toHaveText("E-mail us");
  // Moving straight to the neighbour skips the delay: no time passes on the page's clock.
  await chat.hover();
  await expect(bubble).toHaveText("Chat on WhatsApp");
  await page.keyboard.press("Escape");
  await expect(bubble).toHaveCount(0);
});

test("no horizontal scroll at 320 px", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto("/");
  await hydrated(page);
  // The app's drawn map runs past its screen's rounded edge: what is past the edge of a box that
  // clips or scrolls is that box's to show, not the page's (tests/e2e/plans.spec.ts holds a row
  // that scrolls to showing it). The box itself must fit.
  const wide = await page.evaluate(() => {
    const inScroller = (element: Element) => {
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== "visible") return true;
      }
      return false;
    };
    return [...document.querySelectorAll("body *")]
      .filter(
        (element) =>
          element.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5 &&
          !inScroller(element),
      )
      .map((element) =>
        `${element.tagName.toLowerCase()}.${element.getAttribute("class") ?? ""}`.slice(0, 90),
      );
  });
  expect(wide).toEqual([]);
});

// One test a page and scheme: axe over a whole landing page takes 5-20 s on a loaded machine.
for (const colorScheme of ["light", "dark"] as const) {
  for (const path of [
    "/",
    "/share",
    "/sitemap",
    "/thank-you?cta=demo",
    "/nope",
    "/privacy",
    "/terms",
    "/ar/privacy",
    "/ar/terms",
  ]) {
    test(`axe finds nothing on ${path} in ${colorScheme} mode @wide`, async ({ page, watch }) => {
      watch.allowStatus("/nope", 404);
      await page.emulateMedia({ colorScheme });
      if (path.startsWith("/thank-you")) {
        await page.route("https://demo.darb.ae/**", (route) => route.fulfill({ body: "demo" }));
      }
      // The thank-you page moves on to the demo by itself after a second: stay, or the check
      // races it.
      if (path.startsWith("/thank-you")) {
        await openThankYouAndStay(page, path, "Stay on this page");
      } else {
        await page.goto(path);
        await hydrated(page);
      }
      // Every section laid out first, as a visitor's scrolling does: axe measures boxes one by
      // one, and a `content-visibility: auto` section laid out midway moves what it measured.
      await page.evaluate(() => document.documentElement.setAttribute("data-render-all", ""));
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target).join(" ")}`),
      ).toEqual([]);
      // Kept as an artefact: what a visitor sees, to be looked at by eye.
      if (path === "/") {
        await page.screenshot({
          path: test.info().outputPath(`home-${colorScheme}.png`),
          fullPage: true,
        });
      }
    });
  }
}

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("every section's CTA is a working link and every FAQ answer opens", async ({ page }) => {
    await page.goto("/");
    for (const id of ["hero", "plans", "download", "get-started"]) {
      const links = page.locator(`#${id} a[href^="/thank-you?"]`);
      expect(await links.count(), id).toBeGreaterThan(0);
    }
    await page.locator("#faq summary").first().click();
    await expect(page.locator("#faq details").first()).toHaveAttribute("open", "");
  });
});
