import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { safeReturnUrl } from "~/pages/thank-you.server";
import { directFetch, startBuiltServer } from "../support/server";

// The rule (no way back into a hand-off) checked against the routes the built server really
// matches: Remix ignores letter case, resolves dot segments and decodes letters.
const ATTEMPTS = [
  "/thank-you",
  "/THANK-YOU",
  "/ar/thank-you",
  "/AR/Thank-You",
  "/ar/thank-you/",
  "/ar/thank-you//",
  "/ar/./thank-you",
  "/share/../ar/thank-you",
  "/%61r/thank-you",
  "/ar/thank%2Dyou",
  "/ar/thank%2dyou",
  "/%41R/THANK-YOU",
  "/ar/thank-you?cta=demo&source=again",
  "/ar/thank-you#x",
  "/ar//thank-you",
  "/thank-you.",
  "/ar%2Fthank-you",
];

let site: Awaited<ReturnType<typeof startBuiltServer>>;
beforeAll(async () => {
  site = await startBuiltServer({ SITE_URL: "https://darb.example", TRUST_PROXY: "0" });
});
afterAll(() => site?.close());

let asked = 0;

/** Whether the server answers this path with a hand-off (a thank-you page that moves on). */
async function isHandOff(path: string): Promise<boolean> {
  const url = new URL(path, site.origin);
  url.searchParams.set("cta", "demo");
  // A lead of its own each time: the same lead again shows the thanks without moving on.
  url.searchParams.set("source", `return-url-${++asked}`);
  const response = await directFetch(url, { redirect: "manual" });
  const html = await response.text();
  return response.status === 200 && html.includes('http-equiv="refresh"');
}

describe("returnUrl never leads into another hand-off", () => {
  it.each(ATTEMPTS)("%s", async (attempt) => {
    const accepted = safeReturnUrl(attempt);
    // A way back the rule lets through must not be a thank-you page in any language or case.
    expect(await isHandOff(accepted)).toBe(false);
  });

  it("the test can tell: each thank-you spelling is a hand-off when asked directly", async () => {
    for (const path of ["/thank-you", "/AR/Thank-You", "/%61r/thank-you", "/ar/thank%2Dyou"]) {
      expect(await isHandOff(path), path).toBe(true);
    }
  });

  it("/thank-you's Back link falls back to the page's home when returnUrl is a hand-off", async () => {
    const response = await directFetch(
      `${site.origin}/ar/thank-you?cta=whatsapp&returnUrl=${encodeURIComponent("/ar/thank-you?cta=demo&source=again")}`,
    );
    const html = await response.text();
    expect(html).not.toContain("source=again");
    expect(html).toMatch(/href="\/ar"/);
  });
});
