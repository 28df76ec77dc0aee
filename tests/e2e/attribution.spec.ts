import { type AdNetworks, startAdNetworks } from "../support/ad-networks";
import { type ChildServer, startChildServer, until } from "../support/child-server";
import { clockAhead } from "../support/faketime";
import { expect, test } from "./fixtures";

/**
 * A driver lands from a Google ad, closes the tab, and comes back the next day to the site's bare
 * address in the same browser: the tap on WhatsApp is still the ad's lead, with JavaScript on and
 * off (docs/decisions/027-attribution-cookies.md). The next day is a second server whose clock
 * libfaketime moves a day on; the browser sends it the cookie the first one set (cookies are the
 * host's, whatever the port).
 */
test.skip(({ isMobile }) => !isMobile, "a phone's visit");

const WHATSAPP = /^https:\/\/(wa\.me|api\.whatsapp\.com)\//;

let networks: AdNetworks;
let landing: ChildServer;
let nextDay: ChildServer;
test.beforeAll(async () => {
  networks = await startAdNetworks();
  // Plain http on loopback: SITE_URL says so, and the cookie is not marked Secure.
  const env = networks.env({ SITE_URL: "http://darb.test" });
  landing = await startChildServer(env);
  nextDay = await startChildServer({ ...env, ...clockAhead("+1d") });
});
test.afterAll(async () => {
  await landing?.kill();
  await nextDay?.kill();
  await networks?.close();
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a tap the day after the ad's click is the ad's lead, with its campaign", async ({
      page,
    }) => {
      const gclid = `Cj0KCQ-e2e-${javaScriptEnabled ? "js" : "nojs"}-${Date.now()}`;
      await page.goto(`${landing.origin}/?utm_source=google&utm_campaign=Brand&gclid=${gclid}`);
      await expect(page.locator("#hero")).toBeVisible();
      const kept = await page.context().cookies(landing.origin);
      expect(kept.find((cookie) => cookie.name === "darb_campaign")).toMatchObject({
        httpOnly: true,
        sameSite: "Lax",
      });
      await page.close();

      // Another tab, another day, the bare address: nothing in the tab remembers the campaign.
      const tab = await page.context().newPage();
      await tab.context().route(WHATSAPP, (route) =>
        route.fulfill({
          contentType: "text/html",
          body: "<!doctype html><title>WhatsApp</title>",
        }),
      );
      await tab.goto(`${nextDay.origin}/`);
      const tap = tab.locator("#hero").getByRole("link", { name: "Get the app on WhatsApp" });
      await expect(tap).not.toHaveAttribute("href", /gclid|utm_/);
      await tap.tap();
      await tab.waitForURL(WHATSAPP);

      await until(
        () => networks.conversions().some((event) => event.adIdentifiers.gclid === gclid),
        "Google's conversion for the kept click",
      );
      const lead = nextDay.analytics.find(
        (event) => event.name === "generate_lead" && event.params.campaign === "Brand",
      );
      expect(lead?.params).toMatchObject({ lead_source: "google", source: "google" });
    });
  });
}
