import { describe, expect, it, vi } from "vitest";
import { ownCampaign } from "~/analytics/destinations/destination.server";
import { createSink } from "~/analytics/sink.server";
import { REF_ALPHABET } from "~/leads/chat-ref";
import { type Lead, leadParams, recordLead } from "~/leads/leads.server";
import { LEADS_PER_ADDRESS } from "~/leads/limits.server";
import type { RequestContext } from "~/platform/request-context.server";
import { type Config, getConfig } from "~/settings.server";
import type { Campaign } from "~/shared/campaign";
import type { Experiment } from "~/shared/experiment";
import { createServices, type Services } from "../../server/services";

/** A request context as the server makes it, with the analytics lines kept here. */
function contextFor(clientAddress: string, leadValues?: Partial<Config["leadValues"]>) {
  const lines: Array<{ type: string; name: string; params: Record<string, unknown> }> = [];
  const services = createServices({}, { writeLine: (line) => lines.push(JSON.parse(line)) });
  const config = getConfig();
  const context: RequestContext = {
    clientAddress,
    nonce: "n",
    config: { ...config, leadValues: { ...config.leadValues, ...leadValues } },
    services,
    documentKeeper: null,
  };
  return { context, lines, services };
}

/**
 * Another process on the same ledger, whose limits know nothing yet: this replica after a
 * restart, or a second replica while Redis was away.
 */
function sameLedger(from: Services, clientAddress: string) {
  const { context, lines, services } = contextFor(clientAddress);
  const analytics = createSink({
    ledger: from.ledger,
    destinations: [],
    writeLine: (line) => lines.push(JSON.parse(line)),
  });
  const shared: Services = { ...services, ledger: from.ledger, analytics };
  return { context: { ...context, services: shared }, lines };
}

const AGENT = "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0";
const request = (agent = AGENT) =>
  new Request("https://darb.example/thank-you", { headers: { "user-agent": agent } });

// Version 8: derived from the visitor, lead and window (leads/ledger/lead-ids.server.ts).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const REF = new RegExp(`^DRB-[${REF_ALPHABET}]{5}$`);
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
    expect(first.ref).toMatch(REF);
    // A reload: the same lead, with the same id and reference, counted once.
    expect(await recordLead(context, request(), { cta: "whatsapp", campaign: {} })).toEqual({
      verdict: "repeat",
      id: first.id,
      ref: first.ref,
    });
    expect(lines.map((line) => [line.name, line.params.currency, line.params.value])).toEqual([
      ["conversion", "AED", 0],
      ["generate_lead", "AED", 0],
    ]);
  });

  it("gives the lead the tap's value from LEAD_VALUE_AED, on GA4's events and to the networks", async () => {
    const { context, lines, services } = contextFor("203.0.113.3", { tap: 25, installed: 150 });
    const record = vi.spyOn(services.analytics, "record");
    await recordLead(context, request(), { cta: "whatsapp", campaign: {} });
    expect(lines.map((line) => [line.name, line.params.currency, line.params.value])).toEqual([
      ["conversion", "AED", 25],
      ["generate_lead", "AED", 25],
    ]);
    const tap = record.mock.calls[0]?.[2]?.lead?.tap;
    expect(tap?.value).toBe(25);
    expect(tap?.details).toMatchObject({ currency: "AED", value: 25 });
  });

  it("records only conversion for a shared link, and keeps it in the ledger without a reference", async () => {
    const { context, lines, services } = contextFor("203.0.113.2");
    const result = await recordLead(context, request(), {
      cta: "link",
      campaign: { source: "copy" },
    });
    expect(result).toEqual({ verdict: "counted", id: expect.stringMatching(UUID), ref: undefined });
    expect(lines.map((line) => line.name)).toEqual(["campaign_details", "conversion"]);
    expect(services.ledger.lead(result.id ?? "")).toMatchObject({ cta: "link", status: "new" });
    expect(services.ledger.lead(result.id ?? "")).not.toHaveProperty("ref");
  });

  it("gives every counted lead its own id, and a reference only to WhatsApp's", async () => {
    const { context } = contextFor("203.0.113.3");
    const results = [];
    for (const cta of ["whatsapp", "email", "demo"] as const)
      results.push(await recordLead(context, request(), { cta, campaign: {} }));
    for (const { id } of results) expect(id).toMatch(UUID);
    expect(new Set(results.map(({ id }) => id)).size).toBe(3);
    expect(results.map(({ ref }) => ref)).toEqual([
      expect.stringMatching(REF),
      undefined,
      undefined,
    ]);
  });

  it("keeps the counted lead in the ledger with its campaign, visit and reference", async () => {
    const { context, services } = contextFor("203.0.113.5");
    const before = Date.now();
    const result = await recordLead(context, request(), {
      cta: "whatsapp",
      campaign: AD,
      plan: "pro",
      language: "ar",
      sessionId: SID,
      fbclidAt: before - 60_000,
    });
    const record = services.ledger.lead(result.id ?? "");
    expect(record).toEqual({
      id: result.id,
      at: expect.any(Number),
      cta: "whatsapp",
      language: "ar",
      plan: "pro",
      campaign: AD,
      clientId: expect.any(String),
      sessionId: SID,
      ref: result.ref,
      fbc: `fb.1.${before - 60_000}.${AD.fbclid}`,
      status: "new",
    });
    expect(record?.at).toBeGreaterThanOrEqual(before);
    expect(services.ledger.leadByRef(result.ref ?? "")?.id).toBe(result.id);
  });

  it("counts a lead already in the ledger as a repeat, though this process's limits are new", async () => {
    const first = contextFor("203.0.113.6");
    const lead: Lead = { cta: "whatsapp", campaign: { source: "instagram" } };
    const counted = await recordLead(first.context, request(), lead);
    expect(counted.verdict).toBe("counted");

    const second = sameLedger(first.services, "203.0.113.6");
    expect(await recordLead(second.context, request(), lead)).toEqual({
      verdict: "repeat",
      id: counted.id,
      ref: counted.ref,
    });
    // Told to no one twice.
    expect(second.lines).toEqual([]);
    expect(first.services.ledger.leads()).toHaveLength(1);
  });

  it("still counts the page's own view of a lead already in the ledger, as a reload's", async () => {
    const first = contextFor("203.0.113.8");
    const lead: Lead = { cta: "whatsapp", campaign: { source: "instagram" } };
    await recordLead(first.context, request(), lead);
    const second = sameLedger(first.services, "203.0.113.8");
    const view = {
      location: "https://darb.example/thank-you?cta=whatsapp",
      title: "One step left",
    };
    const result = await recordLead(second.context, request(), { ...lead, pageView: view });
    expect(result.verdict).toBe("repeat");
    expect(second.lines.map((line) => line.name)).toEqual(["page_view"]);
  });

  it("gives two leads different references even when they are otherwise alike", async () => {
    const { context } = contextFor("203.0.113.7");
    const refs = new Set<string | undefined>();
    for (const source of ["a", "b", "c", "d", "e", "f"])
      refs.add(
        (await recordLead(context, request(), { cta: "whatsapp", campaign: { source } })).ref,
      );
    expect(refs.size).toBe(6);
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

describe("the lead's session and its tap for the networks", () => {
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

  it("hands the sink the counted lead and its tap: id, page, visitor, the whole campaign, details without click ids", async () => {
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
    const at = recording?.at ?? 0;
    expect(recording).toEqual({
      sessionId: SID,
      at,
      lead: {
        record: {
          id: result.id,
          at,
          cta: "whatsapp",
          language: "en",
          plan: "plus",
          campaign: AD,
          clientId: visitor?.clientId,
          sessionId: SID,
          ref: result.ref,
          fbc: `fb.1.${at}.${AD.fbclid}`,
          status: "new",
        },
        tap: {
          id: result.id,
          at,
          cta: "whatsapp",
          clientId: visitor?.clientId,
          address: "203.0.113.42",
          userAgent: AGENT,
          // Whole: each network takes its own click id from it (ownCampaign).
          campaign: AD,
          fbclidAt: undefined,
          pageUrl: expect.any(Function),
          details: leadParams(
            { cta: "whatsapp", campaign: AD, plan: "plus", language: "en" },
            { clickIds: false },
          ),
          value: 0,
        },
      },
    });
    // The page's address with a network's own part of the campaign: Meta's, here.
    expect(recording?.lead?.tap?.pageUrl(ownCampaign(AD, ["fbclid"]))).toBe(pageUrl.href);
    // What the networks are told of the lead carries no click id of any network.
    expect(JSON.stringify(recording?.lead?.tap?.details)).not.toContain("Cj0KCQ");
    expect(JSON.stringify(recording?.lead?.tap?.details)).not.toContain("IwAR");
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
    expect(result.id).toMatch(UUID);
  });

  it("gives the page the visitor tapped on as the site's home when no path came", async () => {
    const { context, services } = contextFor("203.0.113.43");
    const record = vi.spyOn(services.analytics, "record");
    await recordLead(context, request(), { cta: "email", campaign: {} });
    const tap = record.mock.calls[0]?.[2]?.lead?.tap;
    expect(tap?.pageUrl({})).toBe(new URL("/", getConfig().siteUrl).href);
    expect(tap?.campaign.fbclid).toBeUndefined();
    expect(tap?.fbclidAt).toBeUndefined();
    expect(record.mock.calls[0]?.[2]?.lead?.record).not.toHaveProperty("fbc");
  });

  it("tells the networks nothing of a shared link, and nothing of a repeat", async () => {
    const { context, services } = contextFor("203.0.113.44");
    const record = vi.spyOn(services.analytics, "record");
    const link = await recordLead(context, request(), {
      cta: "link",
      campaign: AD,
      sessionId: SID,
    });
    expect(record.mock.calls[0]?.[2]?.lead?.tap).toBeNull();
    expect(record.mock.calls[0]?.[2]?.lead?.record.id).toBe(link.id);
    await recordLead(context, request(), { cta: "demo", campaign: AD });
    expect(record.mock.calls[1]?.[2]?.lead?.tap).toMatchObject({ cta: "demo", campaign: AD });
    await recordLead(context, request(), { cta: "demo", campaign: AD });
    expect(record).toHaveBeenCalledTimes(2);
  });

  it("shows a reload its page view on the lead's session, and nothing more", async () => {
    const { context, services } = contextFor("203.0.113.45");
    const lead: Lead = {
      cta: "whatsapp",
      campaign: {},
      sessionId: SID,
      pageView: { location: "https://darb.example/thank-you" },
    };
    const first = await recordLead(context, request(), lead);
    const record = vi.spyOn(services.analytics, "record");
    const again = await recordLead(context, request(), lead);
    expect(again).toEqual({ verdict: "repeat", id: first.id, ref: first.ref });
    expect(record).toHaveBeenCalledTimes(1);
    const [, events, recording] = record.mock.calls[0] ?? [];
    expect(events?.map((event) => event.name)).toEqual(["page_view"]);
    expect(recording).toEqual({ sessionId: SID });
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

describe("the experiment's variant and the button's placement", () => {
  const HERO: Experiment = {
    id: "hero_headline",
    status: "running",
    traffic: 1,
    variants: [
      { id: "control", weight: 50, copy: {} },
      { id: "cashback_first", weight: 50, copy: { "hero.headline": { en: "x", ar: "س" } } },
    ],
  };
  function testing(clientAddress: string) {
    const made = contextFor(clientAddress);
    made.context.config = { ...made.context.config, experiments: [HERO] };
    return made;
  }

  it("counts the lead for the variant its link carried, on GA4's events and in the ledger", async () => {
    const { context, lines, services } = testing("203.0.113.30");
    const { id } = await recordLead(context, request(), {
      cta: "whatsapp",
      campaign: {},
      variant: "DRB-hero_headline-cashback_first",
      placement: "sticky",
    });
    expect(
      lines.map((line) => [line.name, line.params.exp_variant_string, line.params.placement]),
    ).toEqual([
      ["conversion", "DRB-hero_headline-cashback_first", "sticky"],
      ["generate_lead", "DRB-hero_headline-cashback_first", "sticky"],
    ]);
    const record = services.ledger.lead(id ?? "");
    expect(record).toMatchObject({
      experiment: { id: "hero_headline", variant: "cashback_first" },
      placement: "sticky",
    });
    expect(record).not.toHaveProperty("experimentSetAside");
  });

  it("sets aside a lead whose link carried no variant, or one the experiment does not have", async () => {
    const { context, lines, services } = testing("203.0.113.31");
    const none = await recordLead(context, request(), { cta: "email", campaign: {} });
    const junk = await recordLead(context, request(), {
      cta: "demo",
      campaign: {},
      variant: "DRB-old_test-control",
    });
    expect(services.ledger.lead(none.id ?? "")?.experimentSetAside).toEqual({
      experiment: "hero_headline",
      reason: "no_variant",
    });
    expect(services.ledger.lead(junk.id ?? "")?.experimentSetAside).toEqual({
      experiment: "hero_headline",
      reason: "unknown_variant",
    });
    for (const id of [none.id, junk.id]) {
      expect(services.ledger.lead(id ?? "")).not.toHaveProperty("experiment");
    }
    for (const line of lines) expect(line.params).not.toHaveProperty("exp_variant_string");
  });

  it("keeps neither while no experiment runs, nor a placement the link did not carry", async () => {
    const { context, lines, services } = contextFor("203.0.113.32");
    const { id } = await recordLead(context, request(), {
      cta: "whatsapp",
      campaign: {},
      variant: "DRB-hero_headline-control",
    });
    const record = services.ledger.lead(id ?? "");
    expect(record).not.toHaveProperty("experiment");
    expect(record).not.toHaveProperty("experimentSetAside");
    expect(record).not.toHaveProperty("placement");
    for (const line of lines) expect(line.params).not.toHaveProperty("placement");
  });
});
