import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import type { Experiment } from "~/shared/experiment";
import { type ChildServer, startChildServer } from "../support/child-server";
import { expect, test } from "./fixtures";

/**
 * Experiments in a phone's browser: the server renders each visitor's variant, so with JavaScript
 * on the headline a visitor first sees is the one they keep, nothing moves, and a variant's page
 * runs no more script than the control's (docs/decisions/022-experiments.md). The
 * impression goes on the browser's own GA4 session, the tap carries the variant and where the
 * button sat, and without JavaScript the page's image counts its view once.
 */
test.skip(({ isMobile }) => !isMobile, "a phone's first screen");

const [experiment] = (
  JSON.parse(readFileSync("experiments.example.json", "utf8")) as { experiments: Experiment[] }
).experiments as [Experiment];
const CONTROL = "Drive Dubai safer. Get up to 25% back on insurance.";
const VARIANT = experiment.variants[1]?.copy["hero.headline"]?.en as string;

let server: ChildServer;
test.beforeAll(async () => {
  server = await startChildServer({ EXPERIMENTS_FILE: "experiments.example.json" });
});
test.afterAll(async () => {
  await server?.kill();
});

type Watch = { headlines: string[]; shifts: number[] };

/** Before the page runs: the headline on every frame the browser paints, and every shift. */
async function watchHeadline(page: Page) {
  await page.addInitScript(() => {
    const frame = window.requestAnimationFrame.bind(window);
    const watch: Watch = { headlines: [], shifts: [] };
    Object.assign(window, { __e2eHeadline: watch });
    const look = () => {
      const text = document.querySelector("#hero-heading")?.textContent;
      if (text != null && watch.headlines.at(-1) !== text) watch.headlines.push(text);
      frame(look);
    };
    frame(look);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number }[]) {
        watch.shifts.push(entry.value);
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/**
 * An address (behind the one trusted proxy) whose visitor, on this phone, gets `headline`; from
 * a block of addresses of the test's own (`block`), so no two tests are one visitor.
 */
async function visitorSeeing(page: Page, headline: string, block = 0): Promise<string> {
  const userAgent = await page.evaluate(() => navigator.userAgent);
  for (let n = 1; n < 60; n++) {
    const address = `198.18.${test.info().workerIndex * 20 + block}.${n}`;
    const html = await (
      await fetch(`${server.origin}/`, {
        headers: {
          "user-agent": userAgent,
          "x-forwarded-for": address,
          "sec-fetch-dest": "document",
        },
      })
    ).text();
    if (html.includes(`>${headline}</h1>`)) return address;
  }
  throw new Error(`no visitor among 59 saw ${headline}`);
}

for (const [name, headline] of [
  ["the control", CONTROL],
  ["the variant", VARIANT],
] as const) {
  test(`${name}'s headline is the first painted and never changes, with nothing moving`, async ({
    page,
  }) => {
    const address = await visitorSeeing(page, headline);
    await page.setExtraHTTPHeaders({ "x-forwarded-for": address });
    await watchHeadline(page);
    await page.goto(`${server.origin}/`);
    // Hydrated, idle, and a reload from the kept page as well.
    await page.waitForFunction(() => "__remixRouter" in window);
    await page.reload();
    await page.waitForFunction(() => "__remixRouter" in window);
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    const watch = await page.evaluate(
      () => (window as unknown as { __e2eHeadline: Watch }).__e2eHeadline,
    );
    expect(watch.headlines).toEqual([headline]);
    expect(watch.shifts.reduce((sum, shift) => sum + shift, 0)).toBe(0);
    await expect(page.locator("h1")).toHaveText(headline);
  });
}

test("a variant's page runs the control's scripts, no more", async ({ page }) => {
  const scripts = async (headline: string) => {
    const address = await visitorSeeing(page, headline);
    await page.setExtraHTTPHeaders({ "x-forwarded-for": address });
    await page.goto(`${server.origin}/`);
    await page.waitForFunction(() => "__remixRouter" in window);
    return page.evaluate(() => ({
      inline: document.querySelectorAll("script:not([src])").length,
      files: [...document.querySelectorAll<HTMLScriptElement>("script[src]")].map((s) => s.src),
      loaded: performance
        .getEntriesByType("resource")
        .filter((entry) => (entry as PerformanceResourceTiming).initiatorType === "script").length,
    }));
  };
  const control = await scripts(CONTROL);
  expect(await scripts(VARIANT)).toEqual(control);
});

const VARIANT_NAME = "DRB-hero_headline-cashback_first";

/** WhatsApp stands in: the thank-you page hands off to it. */
async function standInForWhatsApp(page: Page) {
  await page
    .context()
    .route(/^https:\/\/(wa\.me|api\.whatsapp\.com)\//, (route) =>
      route.fulfill({ contentType: "text/html", body: "<!doctype html><title>WhatsApp</title>" }),
    );
}

/** What the server recorded of one visitor (its GA4 client id), by event name. */
const recorded = (clientId: string, name: string) =>
  server.analytics.filter((event) => event.client_id === clientId && event.name === name);

test("with JavaScript, the impression goes in the browser's batch on its session, and a tap carries the variant and its place", async ({
  page,
}) => {
  await standInForWhatsApp(page);
  const address = await visitorSeeing(page, VARIANT, 1);
  await page.setExtraHTTPHeaders({ "x-forwarded-for": address });
  const batches: {
    session_id?: string;
    events: { name: string; params: Record<string, unknown> }[];
  }[] = [];
  const views: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/api/events") batches.push(request.postDataJSON());
    if (url.pathname === "/api/view") views.push(request.url());
  });
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => "__remixRouter" in window);
  const sent = async () => {
    const batch = batches.find((one) =>
      one.events.some((event) => event.name === "experience_impression"),
    );
    return batch;
  };
  await expect.poll(sent).toBeTruthy();
  const batch = await sent();
  const session = await page.evaluate(
    () => (JSON.parse(sessionStorage.getItem("darb:session") ?? "{}") as { id?: string }).id,
  );
  expect(batch?.session_id).toBe(session);
  expect(
    batch?.events.find((event) => event.name === "experience_impression")?.params,
  ).toMatchObject({ exp_variant_string: VARIANT_NAME });
  // The browser's page_view went on the same session: one GA4 session for the visit.
  const pageView = () =>
    server.analytics.find(
      (event) => event.name === "page_view" && event.params.session_id === session,
    );
  await expect.poll(pageView).toBeTruthy();
  const client = pageView()?.client_id ?? "";
  // And the server, which counted the view when it rendered the page, told GA4 nothing of it.
  await expect.poll(() => recorded(client, "experience_impression").length).toBe(1);
  expect(recorded(client, "experience_impression")[0]?.params.session_id).toBe(session);
  expect(views, "no no-JS view where scripts run").toEqual([]);

  // The tap: the hero's link, as the browser follows it.
  const thankYou = page.waitForRequest((request) => request.url().includes("/thank-you?"));
  await page.locator("#hero").getByRole("link", { name: "Get the app on WhatsApp" }).click();
  const tapped = new URL((await thankYou).url());
  expect(tapped.searchParams.get("exp")).toBe(VARIANT_NAME);
  expect(tapped.searchParams.get("pl")).toBe("hero");
  expect(tapped.searchParams.get("sid")).toBe(session);
  await expect.poll(() => recorded(client, "generate_lead").length).toBe(1);
  expect(recorded(client, "generate_lead")[0]?.params).toMatchObject({
    exp_variant_string: VARIANT_NAME,
    placement: "hero",
    session_id: session,
  });
});

test("with JavaScript, a visit that saw the variant on / and taps on /share still carries it", async ({
  page,
}) => {
  await standInForWhatsApp(page);
  const address = await visitorSeeing(page, VARIANT, 2);
  await page.setExtraHTTPHeaders({ "x-forwarded-for": address });
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => "__remixRouter" in window);
  // Another page of the site in the same tab, which shows no variant.
  await page.goto(`${server.origin}/share`);
  await page.waitForFunction(() => "__remixRouter" in window);
  // The header's WhatsApp link, folded into the menu on a phone: its click, as a tap fires it.
  const header = page.locator('header a[href*="cta=whatsapp"][href*="pl=header"]');
  expect(
    new URL((await header.getAttribute("href")) ?? "", server.origin).searchParams.has("exp"),
  ).toBe(false);
  const thankYou = page.waitForRequest((request) => request.url().includes("/thank-you?"));
  await header.dispatchEvent("click");
  const tapped = new URL((await thankYou).url());
  expect(tapped.searchParams.get("exp")).toBe(VARIANT_NAME);
  expect(tapped.searchParams.get("pl")).toBe("header");
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("the variant is in the page the server sends", async ({ page }) => {
    const address = await visitorSeeing(page, VARIANT);
    await page.setExtraHTTPHeaders({ "x-forwarded-for": address });
    await page.goto(`${server.origin}/`);
    await expect(page.locator("h1")).toHaveText(VARIANT);
  });

  test("the page's view is counted from its image, once, and the lead joins its session with its place", async ({
    page,
  }) => {
    await standInForWhatsApp(page);
    const address = await visitorSeeing(page, VARIANT, 3);
    await page.setExtraHTTPHeaders({ "x-forwarded-for": address });
    const views: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/view") views.push(request.url());
    });
    await page.goto(`${server.origin}/?utm_source=instagram&utm_campaign=e2e_nojs`);
    await expect(page.locator("h1")).toHaveText(VARIANT);
    expect(views).toHaveLength(1);
    const image = new URL(views[0] ?? "");
    expect(image.searchParams.get("p")).toBe("/");
    expect(image.searchParams.get("exp")).toBe(VARIANT_NAME);
    const landing = () =>
      server.analytics.find(
        (event) => event.name === "page_view" && event.params.campaign === "e2e_nojs",
      );
    await expect.poll(landing).toBeTruthy();
    const view = landing();
    const client = view?.client_id ?? "";
    expect(view?.params.page_location).toBe(
      "https://darb.example/?utm_source=instagram&utm_campaign=e2e_nojs",
    );
    expect(recorded(client, "experience_impression")).toHaveLength(1);
    expect(recorded(client, "experience_impression")[0]?.params).toMatchObject({
      exp_variant_string: VARIANT_NAME,
      session_id: view?.params.session_id,
    });
    // A reload asks again, and counts no second view.
    await page.reload();
    expect(views).toHaveLength(2);

    const thankYou = page.waitForRequest((request) => request.url().includes("/thank-you?"));
    await page.locator("#hero").getByRole("link", { name: "Get the app on WhatsApp" }).click();
    const tapped = new URL((await thankYou).url());
    expect(tapped.searchParams.get("pl")).toBe("hero");
    expect(tapped.searchParams.get("exp")).toBe(VARIANT_NAME);
    await expect.poll(() => recorded(client, "generate_lead").length).toBe(1);
    expect(recorded(client, "generate_lead")[0]?.params).toMatchObject({
      placement: "hero",
      exp_variant_string: VARIANT_NAME,
      session_id: view?.params.session_id,
    });
    expect(
      recorded(client, "page_view").filter((event) =>
        String(event.params.page_location).startsWith("https://darb.example/?"),
      ),
    ).toHaveLength(1);
    // No page asked for the image where the server counts the view itself: /thank-you.
    expect(views).toHaveLength(2);
  });
});
