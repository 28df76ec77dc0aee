import type { Page } from "@playwright/test";
import { installClock } from "./clock";
import { expect, test } from "./fixtures";
import { uniqueSource } from "./server-log";

/**
 * The e-mail hand-off must not strand the visitor. /thank-you?cta=email shows
 * the address with a copy button and the reply promise, names the step that is left, and after
 * the hand-off (a mailto: that opens nothing here, as on a phone with no mail app) settles on
 * what to do next instead of "Continuing now…".
 */

const ADDRESS = "hello@darb.ae";

const LANGUAGES = [
  {
    language: "English",
    prefix: "",
    heading: {
      email: "One step left: send the e-mail",
      whatsapp: "One step left: send the message",
      demo: "One step left: try the demo",
    },
    promise: "we'll reply with your download link",
    copy: "Copy address",
    copied: "Address copied",
    continuingNow: "Continuing now…",
    didntOpen: "Didn't your e-mail app open?",
    openAgain: "Open your e-mail app",
    whatsappInstead: "Or message us on WhatsApp",
  },
  {
    language: "Arabic",
    prefix: "/ar",
    heading: {
      email: "بقيت خطوة واحدة: أرسل بريدك الإلكتروني",
      whatsapp: "بقيت خطوة واحدة: أرسل الرسالة",
      demo: "بقيت خطوة واحدة: شاهد العرض التوضيحي",
    },
    promise: "وسنردّ عليك برابط التحميل الخاص بك",
    copy: "نسخ العنوان",
    copied: "تم نسخ العنوان",
    continuingNow: "جارٍ الانتقال الآن…",
    didntOpen: "ألم يُفتح تطبيق البريد الإلكتروني؟",
    openAgain: "افتح تطبيق البريد",
    whatsappInstead: "أو راسلنا عبر واتساب",
  },
] as const;

async function hydrated(page: Page) {
  await page.waitForFunction(() => "__remixRouter" in window);
}

test.beforeEach(async ({ page, watch }, testInfo) => {
  // Chromium opens no mailto: that no gesture started (the stranded case, on phones too) and
  // says so in the console. The visitor's tap on "Open again" is such a gesture.
  watch.allowConsole(/^Not allowed to launch 'mailto:hello@darb\.ae.*a user gesture is required/);
  if (testInfo.project.name === "mobile") await page.setViewportSize({ width: 390, height: 844 });
  // Nothing outside this machine: WhatsApp and the demo are stand-ins.
  await page
    .context()
    .route(/^https:\/\/(wa\.me|demo\.darb\.ae)\//, (route) =>
      route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Out</title><p>Out" }),
    );
});

for (const l of LANGUAGES) {
  const emailPage = () => `${l.prefix}/thank-you?cta=email&source=${uniqueSource("handoff")}`;

  test(`${l.language}: the e-mail hand-off names the step left and shows the address`, async ({
    page,
  }) => {
    await page.goto(emailPage());
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(l.heading.email);
    await expect(page).toHaveTitle(new RegExp(`^${l.heading.email} · `));
    const main = page.getByRole("main");
    await expect(main).toContainText(l.promise);
    const address = main.getByText(ADDRESS, { exact: true });
    await expect(address).toBeVisible();
    // In Arabic the address stays left to right.
    if (l.prefix) await expect(address).toHaveAttribute("dir", "ltr");
    await hydrated(page);
    await expect(main.getByRole("button", { name: l.copy })).toBeVisible();
  });

  test(`${l.language}: the copy button puts the address on the clipboard and says so`, async ({
    page,
    context,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto(emailPage());
    await hydrated(page);
    await page.getByRole("main").getByRole("button", { name: l.copy }).click();
    await expect(page.getByRole("status").getByText(l.copied)).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(ADDRESS);
  });

  test(`${l.language}: after the hand-off the page settles on what to do next`, async ({
    page,
  }) => {
    await installClock(page);
    await page.goto(emailPage());
    await hydrated(page);
    // The hand-off is at 1 s on the page's clock, and the page settles 1.5 s after it.
    await page.clock.runFor(5000);
    expect(new URL(page.url()).pathname).toBe(`${l.prefix}/thank-you`);
    const main = page.getByRole("main");
    await expect(main).not.toContainText(l.continuingNow);
    await expect(main).toContainText(l.didntOpen);
    await expect(main.getByRole("link", { name: l.openAgain })).toHaveAttribute(
      "href",
      /^mailto:hello@darb\.ae\?subject=/,
    );
    await expect(main.getByText(ADDRESS, { exact: true })).toBeVisible();
    await expect(main.getByRole("link", { name: l.whatsappInstead })).toHaveAttribute(
      "href",
      /^https:\/\/wa\.me\/\d+\?text=/,
    );
  });

  test(`${l.language}: each hand-off's heading and title name what is left to do`, async ({
    page,
  }) => {
    for (const cta of ["whatsapp", "demo"] as const) {
      // Read from the server's page: the hand-off itself would leave it.
      const html = await (
        await page.request.get(`${l.prefix}/thank-you?cta=${cta}&source=${uniqueSource("h")}`)
      ).text();
      expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]).toMatch(
        new RegExp(`^${l.heading[cta]} · `),
      );
      expect(/<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1]).toBe(l.heading[cta]);
    }
  });
}

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  for (const l of LANGUAGES) {
    test(`${l.language}: the address is shown and selectable, and the page settles`, async ({
      page,
    }) => {
      await page.goto(`${l.prefix}/thank-you?cta=email&source=${uniqueSource("nojs")}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(l.heading.email);
      const main = page.getByRole("main");
      const address = main.getByText(ADDRESS, { exact: true });
      await expect(address).toBeVisible();
      await expect(main.getByRole("button", { name: l.copy })).toHaveCount(0);
      // One tap selects the whole address.
      expect(await address.evaluate((element) => getComputedStyle(element).userSelect)).toBe("all");
      // No script runs, so no clock of the test's either: the stylesheet swaps the words at 4 s.
      await expect(main.getByText(/Continuing in|سننقلك خلال/)).toBeHidden({ timeout: 10_000 });
      await expect(main.getByText(l.didntOpen)).toBeVisible();
    });
  }
});
