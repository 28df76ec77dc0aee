import type { Page } from "@playwright/test";
import { holdClock, hydrateOnHeldClock, installClock } from "./clock";
import { expect, test } from "./fixtures";
import { watchNavigations } from "./navigations";
import { eventsFor, uniqueSource } from "./server-log";

const WHATSAPP = "https://wa.me/971585550134";
const DEMO = "https://demo.darb.ae/";

/** Stands in for the outside world: Chromium here has no network, and tests must not use one. */
async function stubExternal(page: Page) {
  const visits: string[] = [];
  await page.context().route(/^https:\/\/(wa\.me|demo\.darb\.ae|www\.facebook\.com)\//, (route) => {
    visits.push(route.request().url());
    return route.fulfill({
      contentType: "text/html",
      body: "<!doctype html><title>Outside</title><p>Outside",
    });
  });
  return visits;
}

async function hydrated(page: Page) {
  await page.waitForFunction(() => "__remixRouter" in window);
}

const hero = (page: Page) => page.locator("#hero");

test("the WhatsApp CTA reports the click, counts one lead and lands in WhatsApp", async ({
  page,
}) => {
  const visits = await stubExternal(page);
  const source = uniqueSource("wa");
  await page.goto(`/?source=${source}`);
  await hydrated(page);
  await hero(page).getByRole("link", { name: "Get the app on WhatsApp" }).click();

  // The page moves on a second after the tap (tap-to-whatsapp.spec.ts reads it while it stays).
  await page.waitForURL((url) => url.href.startsWith(WHATSAPP), { timeout: 6000 });
  expect(visits).toHaveLength(1);
  expect(visits[0]).toMatch(new RegExp(`^${WHATSAPP}\\?text=Hi%20Darb`));

  await expect
    .poll(() =>
      eventsFor(source)
        .map((event) => event.name)
        .sort(),
    )
    .toEqual([
      // The browser's for the session, and the server's on /thank-you.
      "campaign_details",
      "campaign_details",
      "conversion",
      "external_link_click",
      "generate_lead",
      "page_view",
      "page_view",
    ]);
  const lead = eventsFor(source).find((event) => event.name === "generate_lead");
  expect(lead?.params).toMatchObject({
    currency: "AED",
    value: 0,
    cta: "whatsapp",
    lead_source: source,
    language: "en",
  });
  const click = eventsFor(source).find((event) => event.name === "external_link_click");
  expect(click?.params).toMatchObject({ cta_type: "whatsapp", placement: "hero" });
  expect(click?.client_id).toBe(lead?.client_id);
  // One GA4 session from the landing page to the lead, carried on the lead link.
  const sessions = new Set(eventsFor(source).map((event) => event.params.session_id));
  expect([...sessions]).toHaveLength(1);
  expect([...sessions][0]).toMatch(/^\d{10}$/);
});

test("the demo CTA lands on the demo site", async ({ page }) => {
  const visits = await stubExternal(page);
  const source = uniqueSource("demo");
  await page.goto(`/?source=${source}`);
  await hydrated(page);
  await hero(page).getByRole("link", { name: "Try the demo" }).click();
  await page.waitForURL(DEMO, { timeout: 6000 });
  expect(visits).toEqual([DEMO]);
  await expect
    .poll(() => eventsFor(source).filter((event) => event.name === "generate_lead"))
    .toHaveLength(1);
});

test("the e-mail CTA reports email_click and offers the support address", async ({
  page,
  watch,
}) => {
  // The hand-off opens no mail app here: Chromium refuses a mailto: that no gesture started.
  watch.allowConsole(/^Not allowed to launch 'mailto:hello@darb\.ae.*a user gesture is required/);
  const source = uniqueSource("mail");
  await page.goto(`/?source=${source}`);
  await hydrated(page);
  const answer = page.waitForResponse((response) =>
    response.url().includes("/thank-you?cta=email&"),
  );
  await hero(page).getByRole("link", { name: "E-mail us" }).click();
  await expect(page).toHaveURL(/\/thank-you\?cta=email&source=/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "One step left: send the e-mail",
  );
  // Without JavaScript a refresh does the same, at once; with it, the page itself, in a second.
  expect(await (await answer).text()).toContain(
    '<noscript><meta http-equiv="refresh" content="0; url=mailto:hello@darb.ae?subject=Darb%3A%20I&#x27;d%20like%20the%20free%20app"/></noscript>',
  );
  await expect(page.getByRole("link", { name: "Open your e-mail app" })).toHaveAttribute(
    "href",
    /^mailto:hello@darb\.ae\?subject=/,
  );
  await expect
    .poll(() =>
      eventsFor(source)
        .map((event) => event.name)
        .sort(),
    )
    .toEqual([
      "campaign_details",
      "campaign_details",
      "conversion",
      "email_click",
      "generate_lead",
      "page_view",
      "page_view",
    ]);
});

// The hand-off is a second after /thank-you starts, on the page's clock (./clock.ts): the tests
// below hold that clock while they act, and to prove the hand-off does not happen they move it
// past the moment, then look at once.
const PAST_THE_HAND_OFF = 3500;

test("the page names the step left, counts down, and its button opens the chat", async ({
  page,
}) => {
  await stubExternal(page);
  await holdClock(page);
  await page.goto(`/thank-you?cta=whatsapp&source=${uniqueSource("words")}`);
  await hydrateOnHeldClock(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "One step left: send the message",
  );
  await expect(page.getByText("Opening WhatsApp…")).toBeVisible();
  await expect(page.getByTestId("redirect-countdown")).toHaveText("Continuing in 1 second.");
  await expect(page.getByRole("link", { name: "Open WhatsApp" })).toHaveAttribute(
    "href",
    new RegExp(`^${WHATSAPP}\\?text=Hi%20Darb`),
  );
  await page.clock.runFor(1000);
  await page.waitForURL((url) => url.href.startsWith(WHATSAPP));
});

for (const way of ["Back to the site", "header"] as const) {
  test(`leaving /thank-you before the delay cancels the redirect (${way})`, async ({ page }) => {
    const visits = await stubExternal(page);
    const seen = await watchNavigations(page);
    await holdClock(page);
    await page.goto(`/thank-you?cta=whatsapp&source=${uniqueSource("leave")}`);
    await hydrateOnHeldClock(page);
    if (way === "header")
      await page.getByRole("banner").getByRole("link", { name: /home/ }).click();
    else await page.getByRole("link", { name: way }).click();
    // The router's page, in the same document: its script runs on the held clock too.
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Drive Dubai safer");
    const home = await seen();
    await page.clock.runFor(PAST_THE_HAND_OFF);
    expect(await seen(), "nothing left for WhatsApp").toEqual(home);
    expect(new URL(page.url()).pathname).toBe("/");
    expect(visits).toEqual([]);
  });
}

test("the visitor can stop the countdown and stay", async ({ page }) => {
  const visits = await stubExternal(page);
  const seen = await watchNavigations(page);
  await holdClock(page);
  await page.goto(`/thank-you?cta=demo&source=${uniqueSource("stay")}`);
  await hydrateOnHeldClock(page);
  await page.getByRole("button", { name: "Stay on this page" }).click();
  await expect(page.getByTestId("redirect-countdown")).toHaveText(
    "Staying here. Continue when you're ready.",
  );
  const staying = await seen();
  await page.clock.runFor(PAST_THE_HAND_OFF);
  expect(await seen(), "nothing left for the demo").toEqual(staying);
  expect(new URL(page.url()).pathname).toBe("/thank-you");
  expect(visits).toEqual([]);
  await page.getByRole("link", { name: "Open the demo" }).click();
  await page.waitForURL(DEMO);
});

test("coming Back from WhatsApp does not bounce the visitor out again", async ({ page }) => {
  await stubExternal(page);
  const seen = await watchNavigations(page);
  // Held, so the hand-off is the hydrated page's, as a visitor's is, however slow the load: a
  // hand-off before hydration replaces the page in history, and Back would skip it.
  await holdClock(page);
  await page.goto(`/thank-you?cta=whatsapp&source=${uniqueSource("back")}`);
  await hydrateOnHeldClock(page);
  // The hand-off's second.
  await page.clock.runFor(1000);
  await page.waitForURL((url) => url.href.startsWith(WHATSAPP));
  await page.goBack();
  await expect(
    page.getByText("Thanks for your interest in Darb. Continue when you're ready"),
  ).toBeVisible();
  const back = await seen();
  await page.clock.runFor(PAST_THE_HAND_OFF);
  expect(await seen(), "not sent out again").toEqual(back);
  expect(new URL(page.url()).pathname).toBe("/thank-you");
  await expect(page.getByRole("link", { name: "Open WhatsApp" })).toBeVisible();
});

test("a hostile redirect is ignored: the configured target or none", async ({ page }) => {
  const visits = await stubExternal(page);
  const seen = await watchNavigations(page);
  await installClock(page);
  await page.goto(
    `/thank-you?cta=link&redirect=${encodeURIComponent("https://wa.me@evil.example/")}&returnUrl=//evil.example`,
  );
  await expect(page.getByText("Thanks for your interest in Darb.")).toBeVisible();
  expect(await (await page.request.get(page.url())).text()).not.toContain('http-equiv="refresh"');
  await expect(page.getByRole("link", { name: "Back to the site" })).toHaveAttribute("href", "/");
  // The page's script running, then the time a hand-off would take.
  await hydrated(page);
  const thankYou = await seen();
  await page.clock.runFor(PAST_THE_HAND_OFF);
  expect(await seen(), "no redirect").toEqual(thankYou);
  expect(visits).toEqual([]);
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("the CTA still reaches /thank-you, the lead is recorded once, and the refresh lands", async ({
    page,
  }) => {
    const visits = await stubExternal(page);
    const source = uniqueSource("nojs");
    await page.goto(`/?source=${source}`);
    // Through /thank-you, which moves on at once: its answer is the trace it leaves.
    const thankYou = page.waitForResponse((response) =>
      response.url().includes(`/thank-you?cta=whatsapp&source=${source}`),
    );
    await hero(page).getByRole("link", { name: "Get the app on WhatsApp" }).click();
    expect((await thankYou).status()).toBe(200);
    await page.waitForURL((url) => url.href.startsWith(WHATSAPP), { timeout: 6000 });
    expect(visits).toHaveLength(1);
    await expect
      .poll(() =>
        eventsFor(source)
          .map((event) =>
            event.name === "page_view"
              ? `page_view ${new URL(String(event.params.page_location)).pathname}`
              : event.name,
          )
          .sort(),
      )
      // No script: the server counts the landing page's view from its no-JS image, and
      // /thank-you's with the lead, each with the campaign; the tap knows its button.
      .toEqual([
        "campaign_details",
        "campaign_details",
        "conversion",
        "generate_lead",
        "page_view /",
        "page_view /thank-you",
      ]);
    const sessions = new Set(eventsFor(source).map((event) => event.params.session_id));
    expect(sessions.size, "one GA4 session, begun where the visitor landed").toBe(1);
    const lead = eventsFor(source).find((event) => event.name === "generate_lead");
    expect(lead?.params.placement).toBe("hero");
  });
});

test("page views carry the visit's source across pages", async ({ page }) => {
  const source = uniqueSource("pv");
  await page.goto(`/?source=${source}`);
  await hydrated(page);
  await page.getByRole("contentinfo").getByRole("link", { name: "Sitemap" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sitemap");
  const origin = new URL(page.url()).origin;
  await expect
    .poll(() =>
      eventsFor(source)
        .filter((event) => event.name === "page_view")
        .map((event) => [event.params.page_location, event.params.page_referrer]),
    )
    // Absolute, as GA4 wants them; the second page's referrer is the first.
    .toEqual([
      [`${origin}/?source=${source}`, undefined],
      [`${origin}/sitemap`, `${origin}/?source=${source}`],
    ]);
});

test.describe("share", () => {
  test("without a share sheet, a network opens in a 600x400 popup @wide", async ({ page }) => {
    await stubExternal(page);
    await page.addInitScript(() => {
      // Desktop Chromium has no navigator.share; make sure of it.
      Object.defineProperty(Navigator.prototype, "share", { value: undefined, configurable: true });
      const opened: string[] = [];
      const open = window.open.bind(window);
      Object.assign(window, { __opened: opened });
      window.open = (url, target, features) => {
        opened.push(String(features));
        return open(url, target, features);
      };
    });
    const source = uniqueSource("share");
    await page.goto(`/?source=${source}`);
    await hydrated(page);
    const header = page.getByRole("banner");
    await header.getByLabel("Share", { exact: true }).click();
    const popupOpened = page.waitForEvent("popup");
    await header.getByRole("link", { name: /Facebook/ }).click();
    const popup = await popupOpened;
    await popup.waitForLoadState();
    expect(popup.url()).toContain("https://www.facebook.com/sharer/sharer.php?u=");
    expect(decodeURIComponent(popup.url())).toContain("/?source=facebook");
    const features = await page.evaluate(
      () => (window as unknown as { __opened: string[] }).__opened,
    );
    expect(features).toEqual([
      expect.stringMatching(/^popup=yes,width=600,height=400,left=-?\d+,top=-?\d+$/),
    ]);
    // Phone emulation lays the popup out at 980 px like any page without a viewport tag.
    if (test.info().project.name === "desktop") {
      expect(await popup.evaluate(() => [window.innerWidth, window.innerHeight])).toEqual([
        600, 400,
      ]);
    }
    expect(await popup.evaluate(() => window.opener)).toBeNull();
    expect(new URL(page.url()).pathname).toBe("/");
    await expect
      .poll(() => eventsFor(source).find((event) => event.name === "social_share")?.params)
      .toMatchObject({ method: "facebook", placement: "header" });
  });

  test("with a share sheet, it is used instead of the menu", async ({ page }) => {
    await page.addInitScript(() => {
      const calls: unknown[] = [];
      Object.assign(window, { __shares: calls });
      Object.defineProperty(Navigator.prototype, "share", {
        configurable: true,
        value: (data: unknown) => {
          calls.push(data);
          return Promise.resolve();
        },
      });
    });
    await page.goto("/");
    await hydrated(page);
    await page.getByRole("banner").getByLabel("Share", { exact: true }).click();
    const shares = await page.evaluate(
      () => (window as unknown as { __shares: { url: string }[] }).__shares,
    );
    expect(shares).toHaveLength(1);
    expect(shares[0]?.url).toMatch(/\/\?source=share$/);
    await expect(page.getByRole("banner").getByRole("link", { name: /Facebook/ })).toBeHidden();
  });
});
