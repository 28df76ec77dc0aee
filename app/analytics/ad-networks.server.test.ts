// TikTok, Snap and Google Ads as the sink sends them: each call builder's fields, the headers
// added at send time (never in the ledger), what a 200 that refuses means, and the counters.
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AdLead } from "~/analytics/ad-lead.server";
import {
  conversionDateTime,
  googleAdsLeadCall,
  judgeGoogleAds,
} from "~/analytics/google-ads.server";
import { createTokenCache } from "~/analytics/google-oauth.server";
import { externalId } from "~/analytics/meta-capi.server";
import { createSink, type Sink } from "~/analytics/sink.server";
import { snapLeadCall } from "~/analytics/snap.server";
import { judgeTiktok, tiktokLeadCall } from "~/analytics/tiktok.server";
import { createLedger, type LeadRecord } from "~/leads/ledger/ledger.server";
import type { Visitor } from "~/leads/visitor.server";
import type { GoogleAdsConfig } from "~/platform/config.server";
import type { Campaign } from "~/shared/campaign";

const TIKTOK = {
  pixelCode: "C4TESTPIXEL0123456789",
  accessToken: "tiktok-token-0123456789abcdef",
  endpoint: "https://business-api.tiktok.com/open_api/v1.3",
};
const SNAP = {
  pixelId: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
  accessToken: "snap-token-0123456789abcdef",
  endpoint: "https://tr.snapchat.com/v3",
};
const GOOGLE: GoogleAdsConfig = {
  customerId: "1234567890",
  conversionAction: "customers/1234567890/conversionActions/987654321",
  developerToken: "devtoken_0123456789",
  clientId: "1234-abc.apps.googleusercontent.com",
  clientSecret: "GOCSPX-client-secret",
  refreshToken: "1//refresh-token-0123456789",
  endpoint: "https://googleads.googleapis.com/v26",
  oauthEndpoint: "https://oauth2.googleapis.com/token",
};
const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) Mobile/15E148 Safari/604.1";
const AT = Date.UTC(2026, 10, 26, 20, 30, 15, 400);
const EVERY_CLICK: Campaign = {
  utm_source: "tiktok",
  utm_campaign: "Eid",
  gclid: "gclid-1",
  gbraid: "gbraid-1",
  fbclid: "fbclid-1",
  ttclid: "E.C.P.ttclid-1",
  ScCid: "sccid-1",
};

function adLead(campaign: Campaign = EVERY_CLICK, id = "0192f4a0-lead-id"): AdLead {
  return {
    id,
    clientId: "111.222",
    at: AT,
    address: "203.0.113.9",
    userAgent: PHONE,
    campaign,
    pageUrl: (own) => `https://darb.example/?${new URLSearchParams(own as Record<string, string>)}`,
  };
}

describe("TikTok's Contact", () => {
  it("carries the event id and time, the page with only ttclid, the address, user agent and ttclid", () => {
    const call = tiktokLeadCall(TIKTOK, adLead());
    expect(call.url).toBe(`${TIKTOK.endpoint}/event/track/`);
    expect(call.destination).toBe("tiktok");
    const body = JSON.parse(call.body);
    expect(body).toEqual({
      event_source: "web",
      event_source_id: TIKTOK.pixelCode,
      data: [
        {
          event: "Contact",
          event_time: Math.floor(AT / 1000),
          event_id: "0192f4a0-lead-id",
          user: {
            ip: "203.0.113.9",
            user_agent: PHONE,
            ttclid: "E.C.P.ttclid-1",
            external_id: externalId("111.222"),
          },
          page: {
            url: "https://darb.example/?utm_source=tiktok&utm_campaign=Eid&ttclid=E.C.P.ttclid-1",
          },
        },
      ],
    });
    // The token travels in a header at send time, never in the ledger.
    expect(call.body).not.toContain(TIKTOK.accessToken);
    expect(call.url).not.toContain(TIKTOK.accessToken);
  });

  it("is sent without a click id too, matched by address and user agent", () => {
    const body = JSON.parse(tiktokLeadCall(TIKTOK, adLead({ utm_source: "x" })).body);
    expect(body.data[0].user).not.toHaveProperty("ttclid");
    expect(body.data[0].user.ip).toBe("203.0.113.9");
  });

  it("reads TikTok's 200s: code 0 taken, 40100 rate limited, 5xxxx sent again, a token's codes held, others refused", () => {
    const kind = (status: number, answer: string) => judgeTiktok(status, answer).kind;
    expect(kind(200, '{"code":0,"message":"OK"}')).toBe("delivered");
    expect(kind(200, '{"code":40100,"message":"Too many requests"}')).toBe("retry");
    expect(kind(200, '{"code":50002,"message":"internal"}')).toBe("retry");
    for (const code of [40001, 40002, 40102, 40104, 40105]) {
      expect(kind(200, `{"code":${code},"message":"token"}`)).toBe("credentials");
    }
    expect(judgeTiktok(200, '{"code":40002,"message":"bad field"}')).toEqual({
      kind: "credentials",
      code: "40002",
      message: "bad field",
    });
    expect(kind(200, '{"code":40006,"message":"bad field"}')).toBe("refused");
    expect(kind(200, "<html>")).toBe("retry");
    expect(kind(500, "")).toBe("retry");
    expect(kind(401, "")).toBe("credentials");
  });
});

describe("Snap's SIGN_UP", () => {
  it("carries event id and time, WEB, the page with only ScCid, the address, user agent and sc_click_id", () => {
    const call = snapLeadCall(SNAP, adLead());
    expect(call.url).toBe(`${SNAP.endpoint}/${SNAP.pixelId}/events`);
    expect(JSON.parse(call.body)).toEqual({
      data: [
        {
          event_name: "SIGN_UP",
          event_time: Math.floor(AT / 1000),
          event_id: "0192f4a0-lead-id",
          action_source: "WEB",
          event_source_url:
            "https://darb.example/?utm_source=tiktok&utm_campaign=Eid&ScCid=sccid-1",
          user_data: {
            client_ip_address: "203.0.113.9",
            client_user_agent: PHONE,
            sc_click_id: "sccid-1",
            external_id: externalId("111.222"),
          },
        },
      ],
    });
    expect(call.body).not.toContain(SNAP.accessToken);
    expect(call.url).not.toContain(SNAP.accessToken);
  });

  it("leaves out a user agent too long to be a browser's", () => {
    const lead = { ...adLead(), userAgent: "x".repeat(2000) };
    expect(JSON.parse(snapLeadCall(SNAP, lead).body).data[0].user_data).not.toHaveProperty(
      "client_user_agent",
    );
  });
});

describe("Google Ads click conversions", () => {
  it("uploads with one click id (gclid first), the order id and Dubai's time", () => {
    const call = googleAdsLeadCall(GOOGLE, adLead());
    expect(call?.url).toBe(`${GOOGLE.endpoint}/customers/1234567890:uploadClickConversions`);
    expect(JSON.parse(call?.body ?? "")).toEqual({
      conversions: [
        {
          conversionAction: GOOGLE.conversionAction,
          conversionDateTime: "2026-11-27 00:30:15+04:00",
          orderId: "0192f4a0-lead-id",
          gclid: "gclid-1",
        },
      ],
      partialFailure: true,
    });
    const ios = googleAdsLeadCall(GOOGLE, adLead({ wbraid: "w-1", gbraid: "g-1" }));
    expect(JSON.parse(ios?.body ?? "").conversions[0]).toMatchObject({ gbraid: "g-1" });
    expect(JSON.parse(ios?.body ?? "").conversions[0]).not.toHaveProperty("wbraid");
    // Nothing of the visitor, and no secret.
    for (const secret of ["203.0.113.9", "iPhone", GOOGLE.developerToken, GOOGLE.refreshToken])
      expect(call?.body).not.toContain(secret);
  });

  it("uploads nothing for a lead without a Google click id", () => {
    expect(googleAdsLeadCall(GOOGLE, adLead({ utm_source: "google", ttclid: "t" }))).toBeNull();
  });

  it("writes the conversion time as yyyy-mm-dd hh:mm:ss+04:00", () => {
    expect(conversionDateTime(Date.UTC(2026, 0, 1, 0, 0, 0))).toBe("2026-01-01 04:00:00+04:00");
  });

  it("reads a partial failure as refused, an existing order as delivered, a 401 as a stale token", () => {
    let invalidated = 0;
    const judge = judgeGoogleAds({ get: async () => "t", invalidate: () => invalidated++ });
    expect(judge(200, '{"results":[{"gclid":"g"}]}')).toEqual({ kind: "delivered" });
    expect(judge(200, '{"partialFailureError":{"code":3,"message":"CLICK_NOT_FOUND"}}')).toEqual({
      kind: "refused",
      code: "3",
      message: "CLICK_NOT_FOUND",
    });
    expect(
      judge(200, '{"partialFailureError":{"code":3,"message":"ORDER_ID_ALREADY_IN_USE"}}').kind,
    ).toBe("delivered");
    expect(judge(401, "").kind).toBe("retry");
    expect(invalidated).toBe(1);
    expect(judge(429, "").kind).toBe("retry");
    expect(judge(403, '{"error":{"code":403,"status":"PERMISSION_DENIED"}}')).toMatchObject({
      kind: "credentials",
      code: "403",
    });
  });
});

describe("the OAuth token cache", () => {
  it("fetches once for calls waiting together, keeps the token until 5 minutes before expiry, never shows it", async () => {
    let clock = AT;
    const asked: string[] = [];
    const cache = createTokenCache(GOOGLE, {
      now: () => clock,
      post: async (url, body, options) => {
        asked.push(body);
        expect(url.href).toBe(GOOGLE.oauthEndpoint);
        expect(options.headers["content-type"]).toBe("application/x-www-form-urlencoded");
        options.onAnswer(
          JSON.stringify({ access_token: `ya29.token-${asked.length}`, expires_in: 3599 }),
        );
        return 200;
      },
    });
    const [one, two] = await Promise.all([cache.get(), cache.get()]);
    expect([one, two]).toEqual(["ya29.token-1", "ya29.token-1"]);
    expect(asked).toHaveLength(1);
    const form = new URLSearchParams(asked[0]);
    expect(Object.fromEntries(form)).toEqual({
      grant_type: "refresh_token",
      client_id: GOOGLE.clientId,
      client_secret: GOOGLE.clientSecret,
      refresh_token: GOOGLE.refreshToken,
    });
    clock += 3599_000 - 5 * 60_000 - 1;
    expect(await cache.get()).toBe("ya29.token-1");
    clock += 2;
    expect(await cache.get()).toBe("ya29.token-2");
    cache.invalidate();
    expect(await cache.get()).toBe("ya29.token-3");
  });

  it("rejects without the answer's words when Google gives no token", async () => {
    const cache = createTokenCache(GOOGLE, {
      post: async (_url, _body, options) => {
        options.onAnswer('{"error":"invalid_grant","refresh_token":"1//refresh-token-0123456789"}');
        return 400;
      },
    });
    const error = await cache.get().catch((caught: Error) => caught);
    expect(String(error)).toContain("400");
    expect(String(error)).not.toContain("refresh-token");
  });
});

type Seen = { url: string; headers: Headers; body: unknown };

const server = setupServer();
const sinks: Sink[] = [];
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  for (const sink of sinks.splice(0)) sink.close();
  server.resetHandlers();
});
afterAll(() => server.close());

const VISITOR: Visitor = { clientId: "111.222", sessionId: "9", address: "203.0.113.9" };

function record(lead: AdLead): LeadRecord {
  return {
    id: lead.id,
    at: lead.at,
    cta: "whatsapp",
    campaign: lead.campaign,
    clientId: lead.clientId,
    sessionId: "9",
    status: "new",
  };
}

async function until(condition: () => boolean) {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe("the sink with the three networks on", () => {
  it("sends each lead to each network with its credentials in headers, and counts them as tiktok_*, snap_*, google_ads_*", async () => {
    const seen: Seen[] = [];
    const keep = async ({ request }: { request: Request }) => {
      seen.push({
        url: request.url,
        headers: request.headers,
        body: request.headers.get("content-type")?.includes("json")
          ? await request.json()
          : await request.text(),
      });
    };
    server.use(
      http.post(`${TIKTOK.endpoint}/event/track/`, async (info) => {
        await keep(info);
        return HttpResponse.json({ code: 0, message: "OK" });
      }),
      http.post(`${SNAP.endpoint}/${SNAP.pixelId}/events`, async (info) => {
        await keep(info);
        return HttpResponse.json({ status: "VALID" });
      }),
      http.post(GOOGLE.oauthEndpoint, async (info) => {
        await keep(info);
        return HttpResponse.json({ access_token: "ya29.fresh", expires_in: 3599 });
      }),
      http.post(`${GOOGLE.endpoint}/customers/1234567890:uploadClickConversions`, async (info) => {
        await keep(info);
        return HttpResponse.json({ results: [{}] });
      }),
    );
    const ledger = createLedger();
    const sink = createSink({
      ga: null,
      endpoint: "https://unused.example/",
      ledger,
      tiktok: TIKTOK,
      snap: SNAP,
      googleAds: GOOGLE,
      writeLine: () => {},
    });
    sinks.push(sink);
    const withClick = adLead();
    const without = adLead({ utm_source: "ig" }, "0192f4a0-second");
    sink.record(VISITOR, [], { lead: { record: record(withClick), meta: null, ads: withClick } });
    sink.record(VISITOR, [], { lead: { record: record(without), meta: null, ads: without } });
    // Nothing secret was written to the ledger.
    const owed = [
      ...ledger.pendingCalls("tiktok"),
      ...ledger.pendingCalls("snap"),
      ...ledger.pendingCalls("google_ads"),
    ];
    expect(owed.map((call) => call.destination).sort()).toEqual([
      "google_ads",
      "snap",
      "snap",
      "tiktok",
      "tiktok",
    ]);
    for (const secret of [TIKTOK.accessToken, SNAP.accessToken, GOOGLE.developerToken, "ya29"])
      expect(JSON.stringify(owed)).not.toContain(secret);
    await until(() => sink.stats().google_ads_sent === 1 && sink.stats().snap_sent === 2);
    await until(() => sink.stats().tiktok_sent === 2);
    const tiktok = seen.filter((s) => s.url.includes("tiktok"));
    expect(tiktok.map((s) => s.headers.get("access-token"))).toEqual([
      TIKTOK.accessToken,
      TIKTOK.accessToken,
    ]);
    const snap = seen.filter((s) => s.url.includes("snapchat"));
    expect(snap.map((s) => s.headers.get("authorization"))).toEqual([
      `Bearer ${SNAP.accessToken}`,
      `Bearer ${SNAP.accessToken}`,
    ]);
    const upload = seen.filter((s) => s.url.includes("uploadClickConversions"));
    expect(upload).toHaveLength(1);
    expect(upload[0]?.headers.get("authorization")).toBe("Bearer ya29.fresh");
    expect(upload[0]?.headers.get("developer-token")).toBe(GOOGLE.developerToken);
    expect(seen.filter((s) => s.url === GOOGLE.oauthEndpoint)).toHaveLength(1);
    expect(sink.stats()).toMatchObject({
      tiktok_sent: 2,
      snap_sent: 2,
      google_ads_sent: 1,
      google_ads_queued: 0,
    });
    expect(sink.destinations().map((d) => d.name)).toEqual(["tiktok", "snap", "google_ads"]);
  });

  it("keeps TikTok's call owed when TikTok answers 200 with its rate limit, holds one with a bad token, and refuses a bad field", async () => {
    let answers: Array<{ code: number; message?: string }> = [{ code: 40100 }, { code: 0 }];
    server.use(
      http.post(`${TIKTOK.endpoint}/event/track/`, () =>
        HttpResponse.json(answers.shift() ?? { code: 40006, message: "Invalid field" }),
      ),
    );
    const sink = createSink({
      ga: null,
      endpoint: "https://unused.example/",
      ledger: createLedger(),
      tiktok: TIKTOK,
      writeLine: () => {},
    });
    sinks.push(sink);
    const lead = adLead();
    sink.record(VISITOR, [], { lead: { record: record(lead), meta: null, ads: lead } });
    await until(() => sink.stats().tiktok_retried === 1);
    expect(sink.stats()).toMatchObject({ tiktok_retried: 1, tiktok_sent: 0, tiktok_queued: 1 });
    await until(() => sink.stats().tiktok_sent === 1);
    expect(sink.stats().tiktok_sent).toBe(1);
    answers = [{ code: 40105, message: "Access token is invalid" }];
    const other = adLead(EVERY_CLICK, "0192f4a0-third");
    sink.record(VISITOR, [], { lead: { record: record(other), meta: null, ads: other } });
    await until(() => sink.destinations()[0]?.troubles.credentialsRefused === 1);
    // Held for a new token, not lost.
    expect(sink.stats()).toMatchObject({ tiktok_dropped: 0, tiktok_queued: 1 });
    sink.close();
    const fourth = adLead(EVERY_CLICK, "0192f4a0-fourth");
    const again = createSink({
      ga: null,
      endpoint: "https://unused.example/",
      ledger: createLedger(),
      tiktok: TIKTOK,
      writeLine: () => {},
    });
    sinks.push(again);
    again.record(VISITOR, [], { lead: { record: record(fourth), meta: null, ads: fourth } });
    await until(() => again.stats().tiktok_dropped === 1);
    expect(again.destinations()[0]?.outcomes.refused).toBe(1);
  });
});
