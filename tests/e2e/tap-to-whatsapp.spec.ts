import type { Page, Request, TestInfo } from "@playwright/test";
import { expect, test } from "./fixtures";
import { eventsFor, uniqueSource } from "./server-log";

/**
 * A short step after the tap, and WhatsApp from a tap. From the tap
 * on the landing page's main action to WhatsApp's address takes at most 1.5 s, with JavaScript
 * and without; the server counts one lead; Back from WhatsApp never sends the visitor out again;
 * the same lead again shows the thanks and a button that opens WhatsApp with one tap; and that
 * button is the page's largest thing, low on a phone's screen.
 */

const WHATSAPP = /^https:\/\/(wa\.me|api\.whatsapp\.com)\//;
/** The bound, from the tap to the browser's request for WhatsApp's address. */
const TAP_TO_WHATSAPP_MS = 1500;
/** The hand-off is due a second after the page starts; a bounce would come by then. */
const PAST_ANY_HAND_OFF_MS = 2000;

const LANGUAGES = [
  {
    language: "English",
    prefix: "",
    main: "Get the app on WhatsApp",
    open: "Open WhatsApp",
    thanks: "Thanks for your interest in Darb.",
    back: "Back to the site",
  },
  {
    language: "Arabic",
    prefix: "/ar",
    main: "احصل على التطبيق عبر واتساب",
    open: "افتح واتساب",
    thanks: "شكرًا لاهتمامك بدرب.",
    back: "العودة إلى الموقع",
  },
] as const;

/**
 * Stands in for WhatsApp, recording each request for it with the browser's timing. `opens: false`
 * answers 204, which leaves the page where it is: a phone on which nothing opened.
 */
async function stubWhatsApp(page: Page, { opens = true } = {}): Promise<Request[]> {
  const requests: Request[] = [];
  await page.context().route(WHATSAPP, (route) => {
    requests.push(route.request());
    return opens
      ? route.fulfill({ contentType: "text/html", body: "<!doctype html><title>WhatsApp</title>" })
      : route.fulfill({ status: 204 });
  });
  return requests;
}

/** Every document the tab requests, in order. */
function watchDocuments(page: Page): Request[] {
  const documents: Request[] = [];
  page.on("request", (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
      documents.push(request);
    }
  });
  return documents;
}

/**
 * When the visitor tapped, on the browser's clock (ms since 1970): the click event's own time,
 * taken before the page's handlers run. Without JavaScript nothing runs in the page, and the tap
 * is the moment the browser starts the request it made (null here; see `tapToWhatsApp`).
 */
async function watchTap(page: Page): Promise<() => number | null> {
  let tappedAt: number | null = null;
  await page.exposeBinding("__e2eTapped", (_source, at: number) => {
    tappedAt ??= at;
  });
  await page.addInitScript(() => {
    const report = (window as unknown as { __e2eTapped: (at: number) => void }).__e2eTapped;
    const onClick = (event: Event) => report(performance.timeOrigin + event.timeStamp);
    document.addEventListener("click", onClick, { capture: true });
  });
  return () => tappedAt;
}

/** Milliseconds from the tap to the request for WhatsApp, both on the browser's clock. */
function tapToWhatsApp(tappedAt: number | null, documents: Request[], whatsapp: Request): number {
  const thankYou = documents.find((request) =>
    /\/thank-you$/.test(new URL(request.url()).pathname),
  );
  if (!thankYou) throw new Error("the tap requested no /thank-you");
  return whatsapp.timing().startTime - (tappedAt ?? thankYou.timing().startTime);
}

async function hydrated(page: Page) {
  await page.waitForFunction(() => "__remixRouter" in window);
}

const leads = (source: string) =>
  eventsFor(source).filter((event) => event.name === "generate_lead").length;

/** Waits until this document has been up longer than any hand-off takes, on its own clock. */
async function pastAnyHandOff(page: Page) {
  // Asked from here: without JavaScript the page runs no polling of its own.
  await expect
    .poll(() => page.evaluate(() => performance.now()), { timeout: 10_000 })
    .toBeGreaterThan(PAST_ANY_HAND_OFF_MS);
}

async function attachScreen(page: Page, testInfo: TestInfo, name: string) {
  await testInfo.attach(name, { body: await page.screenshot(), contentType: "image/png" });
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
});

for (const javaScript of [true, false]) {
  test.describe(`with JavaScript ${javaScript ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: javaScript });

    test("the tap reaches WhatsApp within 1.5 s, counts one lead, and Back does not bounce", async ({
      page,
    }, testInfo) => {
      const whatsapp = await stubWhatsApp(page);
      const documents = watchDocuments(page);
      const tapped = await watchTap(page);
      const source = uniqueSource("tap");
      await page.goto(`/?source=${source}`);
      if (javaScript) await hydrated(page);
      await page.locator("#hero").getByRole("link", { name: "Get the app on WhatsApp" }).tap();
      await page.waitForURL((url) => url.hostname === "wa.me");

      expect(whatsapp).toHaveLength(1);
      const took = tapToWhatsApp(javaScript ? tapped() : null, documents, whatsapp[0] as Request);
      testInfo.annotations.push({ type: "tap to WhatsApp", description: `${Math.round(took)} ms` });
      expect(took).toBeGreaterThan(0);
      expect(took).toBeLessThanOrEqual(TAP_TO_WHATSAPP_MS);
      await expect.poll(() => leads(source)).toBe(1);

      await page.goBack();
      if (javaScript) {
        // The page stayed in history, and thanks the visitor now instead of moving on.
        expect(new URL(page.url()).pathname).toBe("/thank-you");
        const main = page.getByRole("main");
        await expect(main).toContainText("Thanks for your interest in Darb.");
        await expect(main.getByRole("link", { name: "Open WhatsApp" })).toBeVisible();
        await expect(main.getByRole("link", { name: "Back to the site" })).toBeVisible();
      } else {
        // The refresh replaced the page in history: Back is the page of the tap.
        expect(new URL(page.url()).pathname).toBe("/");
        await expect(
          page.locator("#hero").getByRole("link", { name: "Get the app on WhatsApp" }),
        ).toBeVisible();
      }
      await pastAnyHandOff(page);
      expect(whatsapp, "not sent to WhatsApp again").toHaveLength(1);
      expect(new URL(page.url()).hostname).not.toBe("wa.me");
      expect(leads(source), "Back counted no second lead").toBe(1);
    });

    test("the same tap again thanks the visitor, and Open WhatsApp opens it with one tap", async ({
      page,
    }, testInfo) => {
      const whatsapp = await stubWhatsApp(page);
      const source = uniqueSource("again");
      const tapMain = async () => {
        await page.goto(`/?source=${source}`);
        if (javaScript) await hydrated(page);
        await page.locator("#hero").getByRole("link", { name: "Get the app on WhatsApp" }).tap();
      };
      await tapMain();
      await page.waitForURL((url) => url.hostname === "wa.me");
      // WhatsApp's page rather than the app: the visitor goes back and taps the main action again.
      await tapMain();
      await expect(page).toHaveURL(/\/thank-you\?cta=whatsapp/);
      const main = page.getByRole("main");
      await expect(main).toContainText("Your chat with us is one tap away.");
      await expect(main).toContainText("Thanks for your interest in Darb.");
      await pastAnyHandOff(page);
      expect(whatsapp, "no redirect this time").toHaveLength(1);
      await attachScreen(page, testInfo, `thanks-again-${javaScript ? "js" : "no-js"}`);

      await main.getByRole("link", { name: "Open WhatsApp" }).tap();
      await page.waitForURL((url) => url.hostname === "wa.me");
      expect(whatsapp).toHaveLength(2);
      expect(leads(source), "the same lead, counted once").toBe(1);
    });

    for (const l of LANGUAGES) {
      test(`${l.language}: Open WhatsApp is the largest thing on the page, low on a phone's screen`, async ({
        page,
      }, testInfo) => {
        // Nothing opens: the page stays, as on a phone that opens no app from a redirect.
        await stubWhatsApp(page, { opens: false });
        // Only to its answer: a hand-off that starts before the page's load (on a busy machine)
        // stops that load, and Playwright would wait on for it.
        await page.goto(`${l.prefix}/thank-you?cta=whatsapp&source=${uniqueSource("big")}`, {
          waitUntil: "commit",
        });
        // Hydrated or not (a hand-off that starts before the modules arrive stops them), the
        // page is laid out alike.
        const open = page.getByRole("main").getByRole("link", { name: l.open });
        await expect(open).toBeVisible();
        // WhatsApp's mark, from the page's sprite.
        const mark = await open.locator("use").getAttribute("href");
        await expect(page.locator(`symbol${mark}`)).toHaveCount(1);
        const { button, others } = await sizes(page, l.open);
        for (const other of others) {
          expect(button.area, `larger than ${other.what}`).toBeGreaterThan(other.area);
        }
        // In the lower half of the first screen, where a thumb reaches, and wholly on it.
        expect(button.top).toBeGreaterThanOrEqual(844 / 2);
        expect(button.bottom).toBeLessThanOrEqual(844);
        await expect(page.getByRole("main").getByRole("link", { name: l.back })).toBeVisible();
        await attachScreen(
          page,
          testInfo,
          `thank-you-${l.prefix ? "ar" : "en"}-${javaScript ? "js" : "no-js"}`,
        );
      });
    }
  });
}

for (const [cta, name] of [
  ["demo", "Open the demo"],
  ["email", "Open your e-mail app"],
] as const) {
  test(`the ${cta} hand-off has the same button, where it fits`, async ({ page, watch }) => {
    // Chromium opens no mailto: without a gesture, and says so (as in handoff.spec.ts).
    watch.allowConsole(/^Not allowed to launch 'mailto:.*a user gesture is required/);
    await page
      .context()
      .route(/^https:\/\/demo\.darb\.ae\//, (route) => route.fulfill({ status: 204 }));
    await page.goto(`/thank-you?cta=${cta}&source=${uniqueSource(cta)}`, { waitUntil: "commit" });
    await expect(page.getByRole("main").getByRole("link", { name })).toBeVisible();
    const { button, others } = await sizes(page, name);
    // The e-mail's page also shows the address, in a panel larger than any button.
    const rivals = cta === "email" ? others.filter((other) => other.control) : others;
    for (const other of rivals) {
      expect(button.area, `larger than ${other.what}`).toBeGreaterThan(other.area);
    }
    expect(button.top).toBeGreaterThanOrEqual(844 / 2);
    expect(button.bottom).toBeLessThanOrEqual(844);
  });
}

type Thing = { what: string; area: number; control: boolean };

/**
 * The hand-off button's box, and every other thing on the page: a control's box, a text's own
 * extent (a short line in a wide paragraph is a short line), an icon, a panel with a border or a
 * background (not the ones the button sits in).
 */
async function sizes(page: Page, name: string) {
  // Measured once the page is whole and styled: "visible" holds for the link before the
  // stylesheet has arrived (a busy machine once measured the unstyled button).
  await page.waitForFunction(
    () =>
      document.readyState !== "loading" &&
      [...document.querySelectorAll<HTMLLinkElement>("link[rel=stylesheet]")].every(
        (link) => link.sheet !== null,
      ),
  );
  return page.getByRole("main").evaluate((main, label) => {
    const controls = [...main.querySelectorAll("a, button")];
    const open = controls.find((control) => control.textContent?.trim() === label);
    if (!open) throw new Error(`no "${label}" on the page`);
    const box = open.getBoundingClientRect();
    const button = { area: box.width * box.height, top: box.top, bottom: box.bottom };
    const others: Thing[] = [];
    for (const element of main.querySelectorAll("h1, h2, p, a, button, svg, div")) {
      if (element === open || element.contains(open) || open.contains(element)) continue;
      const control = element.matches("a, button");
      let extent: DOMRect;
      if (element.matches("h1, h2, p")) {
        const range = document.createRange();
        range.selectNodeContents(element);
        extent = range.getBoundingClientRect();
      } else if (element.matches("div")) {
        const style = getComputedStyle(element);
        const bare = style.borderTopWidth === "0px" && style.backgroundColor === "rgba(0, 0, 0, 0)";
        if (bare) continue;
        extent = element.getBoundingClientRect();
      } else {
        extent = element.getBoundingClientRect();
      }
      if (extent.width === 0 || extent.height === 0) continue;
      const what = `${element.tagName.toLowerCase()} "${(element.textContent ?? "").trim().slice(0, 40)}"`;
      others.push({ what, area: extent.width * extent.height, control });
    }
    return { button, others };
  }, name);
}
