import { afterEach, describe, expect, it, vi } from "vitest";
import type { LeadRecord } from "~/leads/ledger/ledger.server";
import type { SharedLedger } from "~/leads/ledger/shared-ledger.server";
import type { PhoneHashes } from "~/leads/phone-hashes.server";
import { outOfOrder, recordStage } from "~/leads/stages.server";
import type { RequestContext } from "~/platform/request-context.server";
import { createServices, type Services } from "../../server/services";
import { testContext } from "../../tests/support/request-context";

const NOW = 1_764_000_000_000;
const PHONE: PhoneHashes = { e164: "a".repeat(64), digits: "b".repeat(64) };

type Line = { type: string; name: string; params: Record<string, unknown>; client_id: string };

const opened: Services[] = [];
afterEach(() => {
  for (const services of opened.splice(0)) services.close();
});

function lead(overrides: Partial<LeadRecord> = {}): LeadRecord {
  return {
    id: "6f1c2b7e-8a3d-8c59-9b1e-2f4a6d8c0e11",
    at: NOW - 86_400_000,
    cta: "whatsapp",
    language: "ar",
    plan: "plus",
    campaign: { utm_source: "instagram", utm_medium: "paid", utm_campaign: "Eid", fbclid: "IwAR" },
    clientId: "555.666",
    sessionId: "1763900000",
    ref: "DRB-7K2QX",
    status: "chat_started",
    chatAt: NOW - 3_600_000,
    phone: PHONE,
    ...overrides,
  };
}

/**
 * A request context with services in memory and no GA4, so every event GA4 would be sent is a
 * line here; LEAD_VALUE_AED as given.
 */
function stageContext(values: Partial<RequestContext["config"]["leadValues"]> = {}) {
  const lines: Line[] = [];
  const services = createServices({}, { writeLine: (line) => lines.push(JSON.parse(line)) });
  opened.push(services);
  const base = testContext({ services });
  const context: RequestContext = {
    ...base,
    config: { ...base.config, leadValues: { ...base.config.leadValues, ...values } },
  };
  return { context, lines, ledger: services.ledger };
}

/** A shared ledger (Redis) that knows `known` and answers claims with `claim`. */
function sharedWith(known: LeadRecord | undefined, claim: boolean | null): SharedLedger {
  return {
    post: async () => 204,
    leadByRef: async (ref) => (known?.ref === ref ? known : undefined),
    claimChat: async () => null,
    claimStage: vi.fn(async () => claim),
    all: async () => ({ leads: [], chats: [] }),
    exposures: async () => [],
  };
}

const ask = (stage: "qualified" | "installed" | "lost", more: object = {}) => ({
  ref: "DRB-7K2QX",
  stage,
  ...more,
});

describe("recordStage", () => {
  it("records a stage once, telling GA4 its lead event on the lead's own client and session", async () => {
    const { context, lines, ledger } = stageContext({ qualified: 40 });
    ledger.recordLead(lead(), []);
    expect(await recordStage(context, ask("qualified"), NOW)).toEqual({
      status: 200,
      recorded: true,
      ref: "DRB-7K2QX",
      stage: "qualified",
    });
    expect(lines).toEqual([
      {
        type: "analytics",
        name: "qualify_lead",
        params: {
          currency: "AED",
          value: 40,
          lead_status: "qualified",
          lead_source: "instagram",
          cta: "whatsapp",
          language: "ar",
          plan: "plus",
          source: "instagram",
          medium: "paid",
          campaign: "Eid",
          session_id: "1763900000",
          engagement_time_msec: 1,
        },
        client_id: "555.666",
      },
    ]);
    expect(ledger.lead(lead().id)?.stages).toEqual({ qualified: { at: NOW, value: 40 } });
    expect(ledger.counted().stages).toEqual({ qualified: 1 });
  });

  it("takes the value given over LEAD_VALUE_AED's, and 0 when neither is", async () => {
    const { context, lines, ledger } = stageContext({ installed: 150 });
    ledger.recordLead(lead(), []);
    ledger.recordLead(lead({ id: "lead-2", ref: "DRB-33333" }), []);
    await recordStage(context, ask("installed", { value: 99.5 }), NOW);
    await recordStage(context, { ref: "DRB-33333", stage: "qualified" }, NOW);
    expect(lines.map((line) => [line.name, line.params.value])).toEqual([
      ["close_convert_lead", 99.5],
      ["qualify_lead", 0],
    ]);
    expect(ledger.lead(lead().id)?.stages?.installed).toEqual({ at: NOW, value: 99.5 });
  });

  it("defaults each stage's value to its own LEAD_VALUE_AED amount", async () => {
    const { context, lines, ledger } = stageContext({ qualified: 40, installed: 150, lost: 5 });
    ledger.recordLead(lead(), []);
    await recordStage(context, ask("qualified"), NOW);
    await recordStage(context, ask("installed"), NOW + 1);
    ledger.recordLead(lead({ id: "lead-2", ref: "DRB-33333" }), []);
    await recordStage(context, { ref: "DRB-33333", stage: "lost" }, NOW + 2);
    expect(lines.map((line) => [line.name, line.params.value])).toEqual([
      ["qualify_lead", 40],
      ["close_convert_lead", 150],
      ["disqualify_lead", 5],
    ]);
  });

  it("takes qualified then installed, and tells the networks the lead's phone and landing page", async () => {
    const { context, ledger } = stageContext();
    ledger.recordLead(lead(), []);
    const told = vi.spyOn(context.services.analytics, "recordStage");
    expect(await recordStage(context, ask("qualified"), NOW)).toMatchObject({ recorded: true });
    expect(await recordStage(context, ask("installed"), NOW + 1000)).toMatchObject({
      status: 200,
      recorded: true,
      stage: "installed",
    });
    expect(told).toHaveBeenCalledTimes(2);
    const facts = told.mock.calls[1]?.[0];
    expect(facts).toMatchObject({
      lead: { id: lead().id, stages: { qualified: { at: NOW, value: 0 } } },
      stage: "installed",
      at: NOW + 1000,
      value: 0,
      phone: PHONE,
    });
    expect(facts?.pageUrl({ fbclid: "IwAR" })).toBe(
      new URL("/?fbclid=IwAR", context.config.siteUrl).href,
    );
    // Installed is the lead's last stage: its phone's hashes are kept no longer.
    expect(ledger.lead(lead().id)).not.toHaveProperty("phone");
  });

  it.each([
    ["qualified after installed", ["installed"], "qualified"],
    ["lost after installed", ["installed"], "lost"],
    ["installed after lost", ["lost"], "installed"],
    ["qualified after lost", ["lost"], "qualified"],
  ] as const)("refuses %s with 409, recording nothing", async (_label, before, stage) => {
    const { context, lines, ledger } = stageContext();
    ledger.recordLead(lead(), []);
    for (const earlier of before) await recordStage(context, ask(earlier), NOW);
    const linesBefore = lines.length;
    const stagesBefore = ledger.lead(lead().id)?.stages;
    const answer = await recordStage(context, ask(stage), NOW + 1000);
    expect(answer).toEqual({
      status: 409,
      error: expect.stringContaining(`${stage} cannot follow`),
    });
    expect(lines).toHaveLength(linesBefore);
    expect(ledger.lead(lead().id)?.stages).toEqual(stagesBefore);
    expect(ledger.counted().stages).toEqual({ [before[0]]: 1 });
  });

  it("records the same stage twice only once: the second is answered recorded false", async () => {
    const { context, lines, ledger } = stageContext();
    ledger.recordLead(lead(), []);
    await recordStage(context, ask("installed", { value: 150 }), NOW);
    const again = await recordStage(context, ask("installed", { value: 999 }), NOW + 5000);
    expect(again).toEqual({ status: 200, recorded: false, ref: "DRB-7K2QX", stage: "installed" });
    expect(lines.map((line) => line.name)).toEqual(["close_convert_lead"]);
    expect(ledger.lead(lead().id)?.stages).toEqual({ installed: { at: NOW, value: 150 } });
    expect(ledger.counted().stages).toEqual({ installed: 1 });
  });

  it("tells GA4 a lost lead as close_unconvert_lead once qualified, else disqualify_lead, each with its reason", async () => {
    const { context, lines, ledger } = stageContext();
    ledger.recordLead(lead(), []);
    ledger.recordLead(lead({ id: "lead-2", ref: "DRB-33333" }), []);
    await recordStage(context, ask("qualified"), NOW);
    await recordStage(context, ask("lost", { reason: "chose another app" }), NOW + 1);
    await recordStage(
      context,
      { ref: "DRB-33333", stage: "lost", reason: `no licence ${"x".repeat(200)}` },
      NOW + 2,
    );
    const [, unconvert, disqualify] = lines;
    expect(unconvert).toMatchObject({
      name: "close_unconvert_lead",
      params: { lead_status: "lost", unconvert_lead_reason: "chose another app" },
    });
    expect(unconvert?.params).not.toHaveProperty("disqualified_lead_reason");
    expect(disqualify).toMatchObject({
      name: "disqualify_lead",
      params: { lead_status: "lost", currency: "AED", value: 0 },
    });
    expect(disqualify?.params.disqualified_lead_reason).toBe(
      `no licence ${"x".repeat(200)}`.slice(0, 100),
    );
    expect(disqualify?.params).not.toHaveProperty("unconvert_lead_reason");
  });

  it("gives a reason only to a lost lead's event", async () => {
    const { context, lines, ledger } = stageContext();
    ledger.recordLead(lead(), []);
    await recordStage(context, ask("qualified", { reason: "keen" }), NOW);
    expect(lines[0]?.params).not.toHaveProperty("disqualified_lead_reason");
    expect(lines[0]?.params).not.toHaveProperty("unconvert_lead_reason");
  });

  it.each(["DRB-22222", "not a reference", ""])(
    "answers 404 for %j, recording nothing",
    async (ref) => {
      const { context, lines, ledger } = stageContext();
      ledger.recordLead(lead(), []);
      const answer = await recordStage(context, { ref, stage: "qualified" }, NOW);
      expect(answer).toEqual({ status: 404, error: expect.stringContaining("no lead has") });
      expect(lines).toEqual([]);
      expect(ledger.counted().stages).toEqual({});
    },
  );

  it("finds a lead by its reference however it is written", async () => {
    const { context, ledger } = stageContext();
    ledger.recordLead(lead(), []);
    expect(await recordStage(context, { ref: "drb 7k2qx", stage: "qualified" }, NOW)).toEqual({
      status: 200,
      recorded: true,
      ref: "DRB-7K2QX",
      stage: "qualified",
    });
  });

  it("adopts a lead another replica counted, found through Redis, and records its stage here", async () => {
    const { context, lines, ledger } = stageContext();
    const theirs = lead();
    const shared = sharedWith(theirs, true);
    const withShared = { ...context, services: { ...context.services, shared } };
    expect(await recordStage(withShared, ask("qualified"), NOW)).toMatchObject({
      status: 200,
      recorded: true,
    });
    expect(shared.claimStage).toHaveBeenCalledWith(theirs.id, "qualified", theirs.at);
    expect(ledger.lead(theirs.id)).toMatchObject({
      ref: "DRB-7K2QX",
      stages: { qualified: { at: NOW, value: 0 } },
    });
    expect(lines.map((line) => line.name)).toEqual(["qualify_lead"]);
  });

  it("records nothing when Redis says another replica has the stage already", async () => {
    const { context, lines, ledger } = stageContext();
    ledger.recordLead(lead(), []);
    const shared = sharedWith(undefined, false);
    const withShared = { ...context, services: { ...context.services, shared } };
    expect(await recordStage(withShared, ask("installed"), NOW)).toEqual({
      status: 200,
      recorded: false,
      ref: "DRB-7K2QX",
      stage: "installed",
    });
    expect(lines).toEqual([]);
    expect(ledger.lead(lead().id)).not.toHaveProperty("stages");
    expect(ledger.counted().stages).toEqual({});
  });

  it("refuses a stage out of order after a stage another replica recorded (Redis's copy of the lead has it)", async () => {
    const { context, lines, ledger } = stageContext();
    // This replica has the lead as its chat left it; another one has since recorded it installed.
    ledger.recordLead(lead(), []);
    const installed = lead({ stages: { installed: { at: NOW - 1000, value: 150 } } });
    const withShared = {
      ...context,
      services: { ...context.services, shared: sharedWith(installed, true) },
    };
    const answer = await recordStage(withShared, ask("qualified"), NOW);
    expect(answer).toMatchObject({ status: 409 });
    expect(lines).toEqual([]);
  });

  it("records the stage when Redis cannot say, as this replica's ledger alone would", async () => {
    const { context, ledger } = stageContext();
    ledger.recordLead(lead(), []);
    const withShared = {
      ...context,
      services: { ...context.services, shared: sharedWith(undefined, null) },
    };
    expect(await recordStage(withShared, ask("qualified"), NOW)).toMatchObject({ recorded: true });
    expect(ledger.lead(lead().id)?.stages).toHaveProperty("qualified");
  });
});

describe("outOfOrder", () => {
  const had = (...stages: Array<"qualified" | "installed" | "lost">) =>
    lead({ stages: Object.fromEntries(stages.map((stage) => [stage, { at: NOW, value: 0 }])) });

  it("lets any stage follow none, and installed or lost follow qualified", () => {
    for (const stage of ["qualified", "installed", "lost"] as const) {
      expect(outOfOrder(lead(), stage)).toBeNull();
    }
    expect(outOfOrder(had("qualified"), "installed")).toBeNull();
    expect(outOfOrder(had("qualified"), "lost")).toBeNull();
  });

  it("lets nothing follow the last stage but itself (a repeat)", () => {
    expect(outOfOrder(had("installed"), "qualified")).not.toBeNull();
    expect(outOfOrder(had("installed"), "lost")).not.toBeNull();
    expect(outOfOrder(had("lost"), "installed")).not.toBeNull();
    expect(outOfOrder(had("lost"), "qualified")).not.toBeNull();
    expect(outOfOrder(had("qualified", "installed"), "qualified")).not.toBeNull();
  });
});
