import { afterEach, describe, expect, it } from "vitest";
import type { LeadRecord } from "~/leads/ledger/ledger.server";
import { MAX_STAGE_VALUE } from "~/leads/stages.server";
import { action, loader } from "~/routes/api.leads.stage";
import { getConfig } from "~/settings.server";
import { createServices, type Services } from "../../server/services";
import { testContext } from "../../tests/support/request-context";

const TOKEN = "0123456789abcdef".repeat(4);
const URL_ = "https://darb.example/api/leads/stage";

const opened: Services[] = [];
afterEach(() => {
  for (const services of opened.splice(0)) services.close();
});

function lead(overrides: Partial<LeadRecord> = {}): LeadRecord {
  return {
    id: "6f1c2b7e-8a3d-8c59-9b1e-2f4a6d8c0e11",
    at: Date.now() - 86_400_000,
    cta: "whatsapp",
    campaign: { utm_source: "instagram" },
    clientId: "555.666",
    sessionId: "1763900000",
    ref: "DRB-7K2QX",
    status: "chat_started",
    ...overrides,
  };
}

// Each test its own address: the wrong-token limit is the route's, kept per address.
let addresses = 0;

/** The route with LEADS_API_TOKEN set (or not), services in memory, and its log lines kept. */
function route(token: string | null = TOKEN) {
  const lines: Array<Record<string, unknown>> = [];
  const services = createServices({}, { writeLine: (line) => lines.push(JSON.parse(line)) });
  opened.push(services);
  addresses += 1;
  const context = testContext({
    services,
    clientAddress: `203.0.113.${addresses}`,
    config: { ...getConfig(), leadsApiToken: token },
  });
  services.ledger.recordLead(lead(), []);
  const post = async (
    body: string | object,
    headers: Record<string, string> = {
      authorization: `Bearer ${TOKEN}`,
      "content-type": "application/json",
    },
  ) => {
    const response = await action({
      request: new Request(URL_, {
        method: "POST",
        headers,
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
      context,
      params: {},
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  };
  const get = async () => {
    const response = await loader({ request: new Request(URL_), context, params: {} });
    return { status: response.status, headers: response.headers };
  };
  return { post, get, lines, ledger: services.ledger };
}

const json = (authorization: string) => ({ authorization, "content-type": "application/json" });

describe("POST /api/leads/stage", () => {
  it("is not there (404) without LEADS_API_TOKEN, whatever the request bears", async () => {
    const { post, ledger } = route(null);
    const answer = await post({ ref: "DRB-7K2QX", stage: "installed" });
    expect(answer).toMatchObject({ status: 404, body: { error: "not found" } });
    expect(ledger.lead(lead().id)).not.toHaveProperty("stages");
  });

  it("records a stage and answers what it did, then the same stage again as recorded false", async () => {
    const { post, lines, ledger } = route();
    const first = await post({ ref: "DRB-7K2QX", stage: "installed", value: 150 });
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.body).toEqual({ recorded: true, ref: "DRB-7K2QX", stage: "installed" });
    expect(ledger.lead(lead().id)?.stages?.installed?.value).toBe(150);
    const again = await post({ ref: "DRB-7K2QX", stage: "installed", value: 150 });
    expect(again).toMatchObject({
      status: 200,
      body: { recorded: false, ref: "DRB-7K2QX", stage: "installed" },
    });
    expect(lines.filter((line) => line.type === "lead_stage")).toEqual([
      expect.objectContaining({ recorded: true, ref: "DRB-7K2QX", stage: "installed" }),
      expect.objectContaining({ recorded: false, ref: "DRB-7K2QX", stage: "installed" }),
    ]);
  });

  it("takes a lost lead's reason, and a stage without a value", async () => {
    const { post, ledger } = route();
    const answer = await post({ ref: "DRB-7K2QX", stage: "lost", reason: "no licence yet" });
    expect(answer).toMatchObject({ status: 200, body: { recorded: true, stage: "lost" } });
    expect(ledger.lead(lead().id)?.stages?.lost).toEqual({ at: expect.any(Number), value: 0 });
  });

  it("answers 404 for a reference no lead has and 409 for a stage out of order, recording nothing", async () => {
    const { post, ledger } = route();
    expect(await post({ ref: "DRB-22222", stage: "installed" })).toMatchObject({
      status: 404,
      body: { error: expect.stringContaining("DRB-22222") },
    });
    await post({ ref: "DRB-7K2QX", stage: "installed" });
    const late = await post({ ref: "DRB-7K2QX", stage: "qualified" });
    expect(late).toMatchObject({ status: 409, body: { error: expect.any(String) } });
    expect(Object.keys(ledger.lead(lead().id)?.stages ?? {})).toEqual(["installed"]);
  });

  it("refuses a missing or wrong token with 401, never saying or logging it", async () => {
    const { post, lines, ledger } = route();
    const body = { ref: "DRB-7K2QX", stage: "installed" };
    for (const headers of [
      { "content-type": "application/json" },
      json(`Bearer ${TOKEN.slice(0, -1)}`),
      json(`Bearer ${TOKEN}x`),
      json(`Bearer ${TOKEN.toUpperCase()}`),
      json(`Basic ${TOKEN}`),
      json(`bearer${TOKEN}`),
      json(`Bearer ${TOKEN} extra`),
    ]) {
      const answer = await post(body, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe("Bearer");
      expect(JSON.stringify(answer.body)).not.toContain(TOKEN.slice(0, 16));
    }
    expect(JSON.stringify(lines)).not.toContain(TOKEN.slice(0, 16));
    expect(lines.filter((line) => line.type === "leads_api_refused")).toHaveLength(7);
    expect(ledger.lead(lead().id)).not.toHaveProperty("stages");
  });

  it("answers 429 to an address past 10 wrong tokens", async () => {
    const { post, lines } = route();
    const wrong = json(`Bearer ${"f".repeat(64)}`);
    const body = { ref: "DRB-7K2QX", stage: "installed" };
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) statuses.push((await post(body, wrong)).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
    const limited = await post(body, wrong);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(lines.filter((line) => line.type === "leads_api_refused").at(-1)).toEqual(
      expect.objectContaining({ reason: "token", limited: true }),
    );
    // Another address is not limited by this one's mistakes.
    expect((await route().post(body, wrong)).status).toBe(401);
  });

  it("refuses a body that is not JSON's type with 415", async () => {
    const { post } = route();
    for (const type of ["text/plain", "application/x-www-form-urlencoded", ""]) {
      const answer = await post('{"ref":"DRB-7K2QX","stage":"installed"}', {
        authorization: `Bearer ${TOKEN}`,
        "content-type": type,
      });
      expect(answer.status, type).toBe(415);
    }
    const charset = await post('{"ref":"DRB-7K2QX","stage":"qualified"}', {
      authorization: `Bearer ${TOKEN}`,
      "content-type": "application/json; charset=utf-8",
    });
    expect(charset.status).toBe(200);
  });

  it("refuses a body over 4 KB with 413, and takes one of exactly 4 KB", async () => {
    const { post, ledger } = route();
    const big = JSON.stringify({ ref: "DRB-7K2QX", stage: "installed", pad: "x".repeat(4096) });
    expect((await post(big)).status).toBe(413);
    // Exactly 4096 bytes is taken.
    const base = JSON.stringify({ ref: "DRB-7K2QX", stage: "qualified", pad: "" });
    const fits = JSON.stringify({
      ref: "DRB-7K2QX",
      stage: "qualified",
      pad: "x".repeat(4096 - Buffer.byteLength(base)),
    });
    expect(Buffer.byteLength(fits)).toBe(4096);
    expect((await post(fits)).status).toBe(200);
    expect(Object.keys(ledger.lead(lead().id)?.stages ?? {})).toEqual(["qualified"]);
  });

  it.each([
    ["not JSON", "{ref: DRB-7K2QX}", /not JSON/],
    ["empty", "", /not JSON/],
    ["an array", "[]", /JSON object/],
    ["null", "null", /JSON object/],
    ["no ref", { stage: "installed" }, /ref/],
    ["a ref that is no text", { ref: 7, stage: "installed" }, /ref/],
    ["a ref over 40 characters", { ref: `DRB-7K2QX${"x".repeat(40)}`, stage: "installed" }, /ref/],
    ["no stage", { ref: "DRB-7K2QX" }, /stage must be one of qualified, installed, lost/],
    ["an unknown stage", { ref: "DRB-7K2QX", stage: "bought" }, /stage must be one of/],
    ["a value as text", { ref: "DRB-7K2QX", stage: "installed", value: "150" }, /value/],
    ["a negative value", { ref: "DRB-7K2QX", stage: "installed", value: -1 }, /value/],
    [
      "a value too large",
      { ref: "DRB-7K2QX", stage: "installed", value: MAX_STAGE_VALUE + 1 },
      /value/,
    ],
    ["a reason that is no text", { ref: "DRB-7K2QX", stage: "lost", reason: 1 }, /reason/],
    ["a reason too long", { ref: "DRB-7K2QX", stage: "lost", reason: "x".repeat(101) }, /reason/],
  ])("refuses %s with 400 saying what is wrong, recording nothing", async (_label, body, error) => {
    const { post, ledger } = route();
    const answer = await post(body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(error);
    expect(ledger.lead(lead().id)).not.toHaveProperty("stages");
  });

  it("never reflects what it was sent in an error", async () => {
    const { post } = route();
    const answer = await post({ ref: "<script>alert(1)</script>", stage: "<b>x</b>" });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).not.toContain("<");
  });

  it("answers a GET with 405 and Allow: POST, or 404 while it is off", async () => {
    const answer = await route().get();
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST");
    expect((await route(null).get()).status).toBe(404);
  });
});
