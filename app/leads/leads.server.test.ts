import { describe, expect, it, vi } from "vitest";
import { type Lead, leadParams, recordLead } from "~/leads/leads.server";
import { LEADS_PER_ADDRESS } from "~/leads/limits.server";
import { getConfig } from "~/platform/config.server";
import type { RequestContext } from "~/platform/request-context.server";
import { createServices } from "~/platform/services.server";
import type { Campaign } from "~/shared/campaign";

/** A request context as the server makes it, with the analytics lines kept here. */
function contextFor(clientAddress: string) {
  const lines: Array<{ type: string; name: string; params: Record<string, unknown> }> = [];
  const services = createServices(
    { ga: null, gaEndpoint: "https://www.google-analytics.com/mp/collect" },
    { writeLine: (line) => lines.push(JSON.parse(line)) },
  );
  const context: RequestContext = {
    clientAddress,
    nonce: "n",
    config: getConfig(),
    services,
    documentKeeper: null,
  };
  return { context, lines, services };
}

const AGENT = "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0";
const request = (agent = AGENT) =>
  new Request("https://darb.example/thank-you", { headers: { "user-agent": agent } });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SID = "1732480000";

/** A line's own parameters, without the ones the sink adds to every event. */
function own(params: Record<string, unknown>) {
  const { session_id: _session, engagement_time_msec: _engagement, ...rest } = params;
  return rest;
}

/** A whole campaign as an Instagram ad's link carries it. */
const AD: Campaign = {
  source: "instagram",
  utm_source: "Facebook",
  utm_medium: "paid social",
  utm_campaign: "Ramadan Promo 2026",
  utm_term: "driving lessons",
  utm_content: "{{ad.name}}",
  utm_id: "120210",
  gclid: "Cj0KCQ",
  fbclid: `IwAR${"f".repeat(196)}`,
};

describe("recordLead", () => {
  it("records conversion and generate_lead with AED 0, once in 30 minutes", async () => {
    const { context, lines } = contextFor("203.0.113.1");
    const first = await recordLead(context, request(), { cta: "whatsapp", campaign: {} });
    expect(first.verdict).toBe("counted");
    expect(first.id).toMatch(UUID);
    expect(await recordLead(context, request(), { cta: "whatsapp", campaign: {} })).toEqual({
      verdict: "repeat",
    });
    expect(lines.map((line) => [line.name, line.params.currency, line.params.value])).toEqual([
      ["conversion", "AED", 0],
      ["generate_lead", "AED", 0],
    ]);
  });

  it("records only conversion for a shared link, and gives it no id", async () => {
    const { context, lines } = contextFor("203.0.113.2");
    expect(
      await recordLead(context, request(), { cta: "link", campaign: { source: "copy" } }),
    ).toEqual({ verdict: "counted" });
    expect(lines.map((line) => line.name)).toEqual(["campaign_details", "conversion"]);
  });

  it("gives every counted lead its own id", async () => {
    const { context } = contextFor("203.0.113.3");
    const ids: Array<string | undefined> = [];
    for (const cta of ["whatsapp", "email", "demo"] as const)
      ids.push((await recordLead(context, request(), { cta, campaign: {} })).id);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(3);
  });

  it("keeps two people on one phone model apart when their addresses differ", async () => {
    const { context, lines } = contextFor("127.0.0.2");
    const lead: Lead = { cta: "whatsapp", campaign: { source: "instagram" } };
    await recordLead(context, request(), lead);
    await recordLead({ ...context, clientAddress: "127.0.0.3" }, request(), lead);
    const leads = lines.filter((line) => line.name === "generate_lead");
    expect(leads).toHaveLength(2);
  });

  it("counts the same CTA from another source as another lead, but not another campaign", async () => {
    const { context } = contextFor("203.0.113.4");
    const lead = async (campaign: Campaign) =>
      (await recordLead(context, request(), { cta: "demo", campaign })).verdict;
    expect(await lead({ source: "instagram", utm_campaign: "Eid" })).toBe("counted");
    expect(await lead({ source: "tiktok" })).toBe("counted");
    expect(await lead({ source: "instagram", utm_campaign: "Ramadan" })).toBe("repeat");
    expect(await lead({ utm_source: "instagram" })).toBe("repeat");
    expect(await lead({})).toBe("counted");
    expect(await lead({ source: "direct" })).toBe("repeat");
  });

  it("stops counting one address's leads past its cap, and says so in the counters", async () => {
    const { context, lines, services } = contextFor("203.0.113.9");
    const verdicts: string[] = [];
    for (let n = 0; n < LEADS_PER_ADDRESS.capacity + 5; n++)
      verdicts.push(
        (await recordLead(context, request(`Agent ${n}`), { cta: "demo", campaign: {} })).verdict,
      );
    expect(verdicts.filter((v) => v === "capped")).toHaveLength(5);
    expect(lines.filter((line) => line.name === "generate_lead")).toHaveLength(
      LEADS_PER_ADDRESS.capacity,
    );
    expect(services.counters()).toMatchObject({ leads_capped: 5 });
  });
});

describe("a tagged lead", () => {
  it("tells GA4 the campaign first, in campaign_details' own words", async () => {
    const { context, lines } = contextFor("203.0.113.30");
    await recordLead(context, request(), { cta: "whatsapp", campaign: AD });
    expect(lines.map((line) => line.name)).toEqual([
      "campaign_details",
      "conversion",
      "generate_lead",
    ]);
    expect(own(lines[0]?.params ?? {})).toEqual({
      source: "Facebook",
      medium: "paid social",
      campaign: "Ramadan Promo 2026",
      term: "driving lessons",
      content: "{{ad.name}}",
      campaign_id: "120210",
    });
  });

  it.each([
    ["an untagged visit", {}],
    ["source=direct", { source: "direct" }],
    ["a click id alone", { gclid: "Cj0KCQ" }],
  ] as [string, Campaign][])("sends no campaign_details for %s", async (_, campaign) => {
    const { context, lines } = contextFor("203.0.113.31");
    await recordLead(context, request(), { cta: "email", campaign });
    expect(lines.map((line) => line.name)).toEqual(["conversion", "generate_lead"]);
  });

  it("puts the whole campaign, as written, on conversion and generate_lead", async () => {
    const { context, lines } = contextFor("203.0.113.32");
    await recordLead(context, request(), {
      cta: "demo",
      campaign: AD,
      language: "ar",
      plan: "pro",
    });
    const expected = {
      currency: "AED",
      value: 0,
      lead_source: "instagram",
      cta: "demo",
      language: "ar",
      plan: "pro",
      source: "Facebook",
      medium: "paid social",
      campaign: "Ramadan Promo 2026",
      term: "driving lessons",
      content: "{{ad.name}}",
      campaign_id: "120210",
      gclid: "Cj0KCQ",
    };
    expect(own(lines[1]?.params ?? {})).toEqual(expected);
    expect(own(lines[2]?.params ?? {})).toEqual(expected);
  });
});

describe("leadParams", () => {
  it("names the lead's source as the product does: source, else utm_source, else direct", async () => {
    expect(leadParams({ cta: "email", campaign: {} })).toEqual({
      currency: "AED",
      value: 0,
      lead_source: "direct",
      cta: "email",
    });
    expect(leadParams({ cta: "email", campaign: { utm_source: "WhatsApp Status" } })).toEqual({
      currency: "AED",
      value: 0,
      lead_source: "WhatsApp Status",
      cta: "email",
      source: "WhatsApp Status",
    });
    expect(leadParams({ cta: "email", campaign: { source: "TikTok" } }).lead_source).toBe("TikTok");
  });

  it("passes on click ids that fit GA4's 100 characters, and no longer ones", async () => {
    const params = leadParams({
      cta: "whatsapp",
      campaign: {
        gclid: "g".repeat(100),
        gbraid: "b".repeat(101),
        wbraid: "w",
        fbclid: "f".repeat(200),
        ttclid: "t",
        ScCid: "s",
      },
    });
    expect(params).toMatchObject({ gclid: "g".repeat(100), wbraid: "w", ttclid: "t", ScCid: "s" });
    expect(params).not.toHaveProperty("gbraid");
    expect(params).not.toHaveProperty("fbclid");
  });
});

describe("the lead's session and Meta's Lead", () => {
  it("records every event on the lead link's session when it came with one", async () => {
    const { context, lines } = contextFor("203.0.113.40");
    await recordLead(context, request(), { cta: "whatsapp", campaign: AD, sessionId: SID });
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line.params.session_id, line.name).toBe(SID);
  });

  it("falls back to the visitor's own session", async () => {
    const { context, lines } = contextFor("203.0.113.41");
    await recordLead(context, request(), { cta: "whatsapp", campaign: {} });
    const sessions = new Set(lines.map((line) => line.params.session_id));
    expect(sessions.size).toBe(1);
    const [session] = sessions;
    expect(session).toMatch(/^[0-9]{1,20}$/);
    expect(session).not.toBe(SID);
  });

  it("hands the sink the counted lead, with its id, page, visitor and fbclid whole, and no other network's click id", async () => {
    const { context, services } = contextFor("203.0.113.42");
    const record = vi.spyOn(services.analytics, "record");
    const before = Date.now();
    const result = await recordLead(context, request(), {
      cta: "whatsapp",
      campaign: AD,
      plan: "plus",
      language: "en",
      sessionId: SID,
      fromPath: "/share?x=1",
    });
    expect(record).toHaveBeenCalledTimes(1);
    const [visitor, events, recording] = record.mock.calls[0] ?? [];
    expect(visitor?.address).toBe("203.0.113.42");
    expect(events?.map((event) => event.name)).toEqual([
      "campaign_details",
      "conversion",
      "generate_lead",
    ]);
    const pageUrl = new URL("/share", getConfig().siteUrl);
    pageUrl.search =
      "x=1&source=instagram&utm_source=Facebook&utm_medium=paid+social&utm_campaign=Ramadan+Promo+2026&utm_term=driving+lessons&utm_content=%7B%7Bad.name%7D%7D&utm_id=120210&fbclid=" +
      AD.fbclid;
    expect(recording).toEqual({
      sessionId: SID,
      lead: {
        id: result.id,
        at: expect.any(Number),
        pageUrl: pageUrl.href,
        address: "203.0.113.42",
        userAgent: AGENT,
        fbclid: AD.fbclid,
        details: leadParams(
          { cta: "whatsapp", campaign: { ...AD, gclid: undefined }, plan: "plus", language: "en" },
          { clickIds: false },
        ),
      },
    });
    // Google's click id is Google's business: Meta never sees it.
    expect(JSON.stringify(recording?.lead)).not.toContain("Cj0KCQ");
    expect(recording?.lead?.at).toBeGreaterThanOrEqual(before);
    expect(recording?.lead?.at).toBeLessThanOrEqual(Date.now());
    expect(result.id).toMatch(UUID);
  });

  it("gives the page the visitor tapped on as the site's home when no path came", async () => {
    const { context, services } = contextFor("203.0.113.43");
    const record = vi.spyOn(services.analytics, "record");
    await recordLead(context, request(), { cta: "email", campaign: {} });
    expect(record.mock.calls[0]?.[2]?.lead?.pageUrl).toBe(new URL("/", getConfig().siteUrl).href);
    expect(record.mock.calls[0]?.[2]?.lead?.fbclid).toBeUndefined();
  });

  it("tells Meta nothing of a shared link, and nothing of a repeat", async () => {
    const { context, services } = contextFor("203.0.113.44");
    const record = vi.spyOn(services.analytics, "record");
    await recordLead(context, request(), { cta: "link", campaign: AD, sessionId: SID });
    expect(record.mock.calls[0]?.[2]).toEqual({ sessionId: SID });
    await recordLead(context, request(), { cta: "demo", campaign: AD });
    await recordLead(context, request(), { cta: "demo", campaign: AD });
    expect(record).toHaveBeenCalledTimes(2);
  });
});

describe("a plan's lead", () => {
  it("records the plan on conversion and generate_lead", async () => {
    const { context, lines } = contextFor("203.0.113.20");
    await recordLead(context, request(), { cta: "whatsapp", campaign: {}, plan: "pro" });
    expect(lines.map((line) => [line.name, line.params.plan])).toEqual([
      ["conversion", "pro"],
      ["generate_lead", "pro"],
    ]);
  });

  it("counts Plus then Pro as two leads, and the same plan again as the same lead", async () => {
    const { context } = contextFor("203.0.113.21");
    const lead = async (plan: "plus" | "pro") =>
      (await recordLead(context, request(), { cta: "whatsapp", campaign: { source: "x" }, plan }))
        .verdict;
    expect(await lead("plus")).toBe("counted");
    expect(await lead("pro")).toBe("counted");
    expect(await lead("pro")).toBe("repeat");
    expect(await lead("plus")).toBe("repeat");
  });

  it("leaves plan out of a lead that has none", async () => {
    const { context, lines } = contextFor("203.0.113.22");
    await recordLead(context, request(), { cta: "demo", campaign: { source: "y" } });
    expect(lines.map((line) => line.name)).toEqual([
      "campaign_details",
      "conversion",
      "generate_lead",
    ]);
    for (const line of lines) expect(line.params).not.toHaveProperty("plan");
  });
});
