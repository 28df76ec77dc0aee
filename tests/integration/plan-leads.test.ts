// A plan's lead over HTTP: `/thank-you?cta=whatsapp&plan=pro` opens WhatsApp with the
// message that names Pro and records `plan: "pro"`; an unknown plan is ignored. Both languages,
// read from the real server's JSON analytics lines (no GA4 configured).
import { Window } from "happy-dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildServer, sleep, startChildServer } from "../support/child-server";
import { ANDROID_CHROME } from "../support/user-agents";

const NUMBER = "971585550134";
let server: ChildServer;
let visitors = 0;
const window = new Window();

beforeAll(async () => {
  server = await startChildServer({ WHATSAPP_NUMBER: NUMBER });
}, 30_000);
afterAll(async () => {
  await server?.kill();
  await window.happyDOM.close();
});

/** Each request a visitor of its own, behind the one trusted proxy. */
async function visit(path: string) {
  const response = await fetch(`${server.origin}${path}`, {
    headers: { "user-agent": ANDROID_CHROME, "x-forwarded-for": `203.0.113.${++visitors}` },
    redirect: "manual",
  });
  return { status: response.status, html: await response.text() };
}

/** Where the page moves on to by itself: its no-script refresh, at once. */
function refreshTarget(html: string): URL {
  const content = /<meta http-equiv="refresh" content="0; url=([^"]+)"/.exec(html)?.[1];
  if (!content) throw new Error("no refresh in the page");
  const textarea = new window.DOMParser().parseFromString(`<p>${content}</p>`, "text/html");
  return new URL(textarea.querySelector("p")?.textContent ?? "");
}

/** The lead's events for a source, once the server has written them. */
async function leadsFor(source: string, count = 4) {
  for (let waited = 0; waited < 3000; waited += 50) {
    const found = server.analytics.filter((line) => line.params.source === source);
    if (found.length >= count) return found;
    await sleep(50);
  }
  return server.analytics.filter((line) => line.params.source === source);
}

describe.each([
  ["/thank-you", "Pro plan", "en"],
  ["/ar/thank-you", "باقة برو", "ar"],
])("%s", (path, proWords, language) => {
  it("plan=pro opens WhatsApp with the message naming Pro and records plan: pro", async () => {
    const source = `plan-pro-${language}`;
    // Whatever text the link's redirect carried, the server writes the plan's own.
    const redirect = encodeURIComponent(`https://wa.me/${NUMBER}?text=Something%20else`);
    const page = await visit(`${path}?cta=whatsapp&plan=pro&source=${source}&redirect=${redirect}`);
    expect(page.status).toBe(200);
    const target = refreshTarget(page.html);
    expect(`${target.origin}${target.pathname}`).toBe(`https://wa.me/${NUMBER}`);
    expect(target.searchParams.get("text")).toContain(proWords);
    const events = await leadsFor(source);
    expect(events.map((event) => [event.name, event.params.plan, event.params.language])).toEqual([
      // The link was tagged (source): GA4 learns the campaign first.
      ["campaign_details", undefined, language],
      // Followed without a session on the link: the server counts the page's view too.
      ["page_view", undefined, language],
      ["conversion", "pro", language],
      ["generate_lead", "pro", language],
    ]);
  });

  it("plan=evil is ignored: the usual message, and no plan on the lead", async () => {
    const source = `plan-unknown-${language}`;
    const page = await visit(`${path}?cta=whatsapp&plan=evil&source=${source}`);
    expect(page.status).toBe(200);
    const target = refreshTarget(page.html);
    expect(`${target.origin}${target.pathname}`).toBe(`https://wa.me/${NUMBER}`);
    expect(target.searchParams.get("text")).not.toContain(proWords);
    expect(page.html).not.toContain("evil");
    const events = await leadsFor(source);
    expect(events.map((event) => event.name)).toEqual([
      "campaign_details",
      "page_view",
      "conversion",
      "generate_lead",
    ]);
    for (const event of events) expect(event.params).not.toHaveProperty("plan");
  });
});

describe("the landing pages' plan buttons", () => {
  it.each([
    ["/", "/thank-you", ["Get Plus free", "Get Basic free", "Choose Pro"], "per year"],
    ["/ar", "/ar/thank-you", ["احصل على بلس مجانًا", "اختر الأساسية", "اختر برو"], "سنويًا"],
  ])(
    "%s: each names its plan on its lead link, the offer first, and paid prices show the period",
    async (path, thankYou, buttons, period) => {
      const page = await visit(path);
      const document = new window.DOMParser().parseFromString(page.html, "text/html");
      const plans = document.querySelector("#plans");
      const links = [...(plans?.querySelectorAll('a[href*="thank-you?"]') ?? [])];
      expect(links.map((link) => link.textContent?.trim())).toEqual(buttons);
      const hrefs = links.map((link) => new URL(link.getAttribute("href") ?? "", server.origin));
      expect(hrefs.map((href) => href.pathname)).toEqual([thankYou, thankYou, thankYou]);
      expect(hrefs.map((href) => href.searchParams.get("plan"))).toEqual(["plus", "basic", "pro"]);
      // With JavaScript off, each button itself carries the message that names its plan.
      const texts = hrefs.map(
        (href) => new URL(href.searchParams.get("redirect") ?? "").searchParams,
      );
      expect(new Set(texts.map((text) => text.get("text"))).size).toBe(3);
      // The paid plans' prices with their period, right after the amount; the free one without.
      const prices = [...(plans?.querySelectorAll("li > p:first-of-type") ?? [])].map((price) =>
        price.textContent?.replace(/[\s\u200e\u200f]+/g, " "),
      );
      expect(prices).toHaveLength(3);
      expect(prices[0]).toMatch(new RegExp(`149.* ${period}$`));
      expect(prices[1]).not.toContain(period);
      expect(prices[2]).toMatch(new RegExp(`299.* ${period}$`));
    },
  );
});
