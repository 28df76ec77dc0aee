// Google Ads through the Data Manager API: its settings, the events:ingest body field by field
// (against the API's reference: IngestEventsRequest, Destination, Event, AdIdentifiers,
// UserData), a lead without a Google click never sent, what Google's answers mean, and the OAuth
// access token fetched, cached and added only as a call is sent.
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ChatFacts,
  configure,
  type StageFacts,
  type TapFacts,
} from "~/analytics/destinations/destination.server";
import {
  DEFAULT_DATA_MANAGER_ENDPOINT,
  DEFAULT_GOOGLE_OAUTH_ENDPOINT,
  dubaiTimestamp,
  type GoogleSettings,
  google,
  judgeGoogle,
} from "~/analytics/destinations/google.server";
import { createTokenCache } from "~/analytics/google-oauth.server";
import { createOutbox, type Outbox, type Post } from "~/analytics/outbox.server";
import { createLedger, type LeadRecord, type NewCall } from "~/leads/ledger/ledger.server";
import { phoneHashes } from "~/leads/phone-hashes.server";
import { ConfigError, type Env } from "~/platform/setting-readers.server";
import type { Campaign } from "~/shared/campaign";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const SECRET = "TOPSECRET1";
const ENV = {
  GOOGLE_ADS_CUSTOMER_ID: "123-456-7890",
  GOOGLE_ADS_CONVERSION_ACTION: "987654321",
  GOOGLE_ADS_CLIENT_ID: "1234-abc.apps.googleusercontent.com",
  GOOGLE_ADS_CLIENT_SECRET: `GOCSPX-${SECRET}`,
  GOOGLE_ADS_REFRESH_TOKEN: `1//${SECRET}-refresh`,
};
const SETTINGS: GoogleSettings = {
  customerId: "1234567890",
  loginCustomerId: null,
  actions: { tap: "987654321", chat: "111", qualified: "222", installed: "333" },
  clientId: "1234-abc.apps.googleusercontent.com",
  clientSecret: "GOCSPX-client-secret",
  refreshToken: "1//refresh-token-0123456789",
  endpoint: DEFAULT_DATA_MANAGER_ENDPOINT,
  oauthEndpoint: DEFAULT_GOOGLE_OAUTH_ENDPOINT,
  moments: new Set(["tap", "chat", "stages"]),
  unused: [],
};
const INGEST_URL = "https://datamanager.googleapis.com/v1/events:ingest";

const PHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) Mobile/15E148 Safari/604.1";
/** 20:30:15 UTC on 26 November: 00:30:15 on the 27th in Dubai. */
const AT = Date.UTC(2026, 10, 26, 20, 30, 15, 400);
const LATER = Date.UTC(2026, 10, 27, 8, 0, 0);
const LEAD_ID = "0192f4a0-lead-id";
const WA_ID = "971501234567";
/** What Google matches a phone on: SHA-256 of E.164, its "+" included, as hex. */
const PHONE = sha256("+971501234567");

const EVERY_CLICK: Campaign = {
  utm_source: "google",
  gclid: "gclid-1",
  gbraid: "gbraid-1",
  wbraid: "wbraid-1",
  fbclid: "fbclid-1",
  ttclid: "ttclid-1",
  ScCid: "sccid-1",
};
const pageUrl = (campaign: Campaign) =>
  `https://darb.example/?${new URLSearchParams(campaign as Record<string, string>)}`;

function tap(overrides: Partial<TapFacts> = {}): TapFacts {
  return {
    id: LEAD_ID,
    at: AT,
    cta: "whatsapp",
    clientId: "111.222",
    address: "203.0.113.9",
    userAgent: PHONE_UA,
    campaign: EVERY_CLICK,
    pageUrl,
    details: { cta: "whatsapp" },
    value: 25,
    ...overrides,
  };
}

function lead(overrides: Partial<LeadRecord> = {}): LeadRecord {
  return {
    id: LEAD_ID,
    at: AT,
    cta: "whatsapp",
    campaign: EVERY_CLICK,
    clientId: "111.222",
    sessionId: "9",
    ref: "DRB-7K2QX",
    status: "chat_started",
    ...overrides,
  };
}

const phone = phoneHashes(WA_ID) ?? undefined;

function chat(facts: Partial<ChatFacts> = {}): ChatFacts {
  return {
    chat: { messageId: "wamid.1", at: LATER, lead: LEAD_ID },
    lead: lead(),
    phone,
    value: 10,
    pageUrl,
    ...facts,
  };
}

const stageOf = (stage: StageFacts["stage"], overrides: Partial<StageFacts> = {}): StageFacts => ({
  lead: lead(),
  stage,
  at: LATER,
  value: 150,
  phone,
  pageUrl,
  ...overrides,
});

const configured = (settings: Partial<GoogleSettings> = {}) =>
  configure(google, { ...SETTINGS, ...settings });
const only = (calls: NewCall[] | undefined): NewCall => {
  expect(calls).toHaveLength(1);
  return calls?.[0] as NewCall;
};
const bodyOf = (call: NewCall) => JSON.parse(call.body);
const eventOf = (call: NewCall) => bodyOf(call).events[0];

function refusal(env: Env): ConfigError {
  try {
    google.settings.read(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("Google's settings", () => {
  it("are off when unset, and on with the Data Manager API's address and every moment when set", () => {
    expect(google.settings.read({})).toBeNull();
    expect(google.settings.read(ENV)).toEqual({
      customerId: "1234567890",
      loginCustomerId: null,
      actions: { tap: "987654321" },
      clientId: ENV.GOOGLE_ADS_CLIENT_ID,
      clientSecret: ENV.GOOGLE_ADS_CLIENT_SECRET,
      refreshToken: ENV.GOOGLE_ADS_REFRESH_TOKEN,
      endpoint: "https://datamanager.googleapis.com/v1",
      oauthEndpoint: "https://oauth2.googleapis.com/token",
      moments: new Set(["tap", "chat", "stages"]),
      unused: [],
    });
  });

  it.each([
    "GOOGLE_ADS_CUSTOMER_ID",
    "GOOGLE_ADS_CLIENT_ID",
    "GOOGLE_ADS_CLIENT_SECRET",
    "GOOGLE_ADS_REFRESH_TOKEN",
  ])("need all four required ones: without %s, it is named", (name) => {
    const error = refusal({ ...ENV, [name]: "" });
    expect(error.variable).toBe(name);
    expect(error.message).toMatch(/must be set when/);
    expect(error.message).not.toContain(SECRET);
  });

  it("need at least one conversion action, any moment's", () => {
    const { GOOGLE_ADS_CONVERSION_ACTION: _, ...withoutAction } = ENV;
    expect(refusal(withoutAction).variable).toBe("GOOGLE_ADS_CONVERSION_ACTION");
    const chatOnly = google.settings.read({
      ...withoutAction,
      GOOGLE_ADS_CHAT_CONVERSION_ACTION: "111",
    });
    expect(chatOnly?.actions).toEqual({ chat: "111" });
    // An action alone is a set begun: the account is named.
    expect(refusal({ GOOGLE_ADS_INSTALLED_CONVERSION_ACTION: "333" }).variable).toBe(
      "GOOGLE_ADS_CUSTOMER_ID",
    );
  });

  it("take an action's id out of its resource name, and each moment's own", () => {
    const settings = google.settings.read({
      ...ENV,
      GOOGLE_ADS_CONVERSION_ACTION: "customers/1234567890/conversionActions/5",
      GOOGLE_ADS_CHAT_CONVERSION_ACTION: "111",
      GOOGLE_ADS_QUALIFIED_CONVERSION_ACTION: "222",
      GOOGLE_ADS_INSTALLED_CONVERSION_ACTION: "customers/1234567890/conversionActions/333",
    });
    expect(settings?.actions).toEqual({
      tap: "5",
      chat: "111",
      qualified: "222",
      installed: "333",
    });
  });

  it("never send an action another account owns as if GOOGLE_ADS_CUSTOMER_ID owned it", () => {
    // The Data Manager API counts a conversion on the account that owns its action: an action of
    // another account is refused at start, or else sent with its owner as the operating account.
    const env = {
      ...ENV,
      GOOGLE_ADS_CONVERSION_ACTION: "customers/9999999999/conversionActions/5",
    };
    let settings: GoogleSettings | null;
    try {
      settings = google.settings.read(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe("GOOGLE_ADS_CONVERSION_ACTION");
      return;
    }
    const body = bodyOf(only(configure(google, settings as GoogleSettings).tap?.(tap())));
    expect(body.destinations[0].operatingAccount.accountId).toBe("9999999999");
  });

  it("take a manager account as GOOGLE_ADS_LOGIN_CUSTOMER_ID", () => {
    expect(
      google.settings.read({ ...ENV, GOOGLE_ADS_LOGIN_CUSTOMER_ID: "111-222-3333" })
        ?.loginCustomerId,
    ).toBe("1112223333");
  });

  it("take loopback stand-ins over http, and nothing else over http", () => {
    const settings = google.settings.read({
      ...ENV,
      GOOGLE_DATA_MANAGER_ENDPOINT: "http://127.0.0.1:9/dm/v1/",
      GOOGLE_OAUTH_ENDPOINT: "http://localhost:9/token",
    });
    expect(settings).toMatchObject({
      endpoint: "http://127.0.0.1:9/dm/v1",
      oauthEndpoint: "http://localhost:9/token",
    });
    expect(refusal({ ...ENV, GOOGLE_DATA_MANAGER_ENDPOINT: "http://dm.example/v1" }).variable).toBe(
      "GOOGLE_DATA_MANAGER_ENDPOINT",
    );
    expect(refusal({ ...ENV, GOOGLE_OAUTH_ENDPOINT: "http://oauth.example/token" }).variable).toBe(
      "GOOGLE_OAUTH_ENDPOINT",
    );
  });

  it.each([
    [{ ...ENV, GOOGLE_ADS_CUSTOMER_ID: "123-456-789" }, "GOOGLE_ADS_CUSTOMER_ID"],
    [{ ...ENV, GOOGLE_ADS_CUSTOMER_ID: "123 456 7890" }, "GOOGLE_ADS_CUSTOMER_ID"],
    [{ ...ENV, GOOGLE_ADS_LOGIN_CUSTOMER_ID: "12345" }, "GOOGLE_ADS_LOGIN_CUSTOMER_ID"],
    [{ ...ENV, GOOGLE_ADS_CONVERSION_ACTION: "Lead form" }, "GOOGLE_ADS_CONVERSION_ACTION"],
    [
      { ...ENV, GOOGLE_ADS_CHAT_CONVERSION_ACTION: "customers/1/conversionActions/5" },
      "GOOGLE_ADS_CHAT_CONVERSION_ACTION",
    ],
    [{ ...ENV, GOOGLE_ADS_CLIENT_ID: "1234-abc" }, "GOOGLE_ADS_CLIENT_ID"],
    [{ ...ENV, GOOGLE_ADS_CLIENT_SECRET: `${SECRET} x` }, "GOOGLE_ADS_CLIENT_SECRET"],
    [{ ...ENV, GOOGLE_ADS_REFRESH_TOKEN: `1// ${SECRET}` }, "GOOGLE_ADS_REFRESH_TOKEN"],
    [{ ...ENV, GOOGLE_ADS_SEND: "click" }, "GOOGLE_ADS_SEND"],
  ])("refuse a malformed value in %j, naming %s without showing a secret", (env, variable) => {
    const error = refusal(env);
    expect(error.variable).toBe(variable);
    expect(error.message).not.toContain(SECRET);
  });

  it("warn of the Google Ads API's settings, which the Data Manager API does not use", () => {
    const settings = google.settings.read({
      ...ENV,
      GOOGLE_ADS_DEVELOPER_TOKEN: `dev_${SECRET}_token`,
      GOOGLE_ADS_ENDPOINT: "https://googleads.googleapis.com/v26",
    }) as GoogleSettings;
    const { warnings, secrets } = configure(google, settings);
    expect(warnings).toEqual([
      expect.stringMatching(/^GOOGLE_ADS_DEVELOPER_TOKEN is set but not used/),
      expect.stringMatching(/^GOOGLE_ADS_ENDPOINT is set but not used/),
    ]);
    expect(warnings.join()).not.toContain(SECRET);
    expect(secrets).toEqual([ENV.GOOGLE_ADS_CLIENT_SECRET, ENV.GOOGLE_ADS_REFRESH_TOKEN]);
    expect(configure(google, google.settings.read(ENV) as GoogleSettings).warnings).toEqual([]);
  });
});

describe("the events:ingest body", () => {
  it("for the tap: the operating account, the action, the lead id, Dubai's time, the gclid and the landing page's device", () => {
    const call = only(configured().tap?.(tap()));
    expect(call).toMatchObject({
      destination: "google_ads",
      url: INGEST_URL,
      events: 1,
      at: AT,
      lead: LEAD_ID,
    });
    expect(bodyOf(call)).toEqual({
      destinations: [
        {
          operatingAccount: { accountType: "GOOGLE_ADS", accountId: "1234567890" },
          productDestinationId: "987654321",
        },
      ],
      events: [
        {
          transactionId: LEAD_ID,
          eventTimestamp: "2026-11-27T00:30:15+04:00",
          eventSource: "WEB",
          adIdentifiers: {
            gclid: "gclid-1",
            landingPageDeviceInfo: { userAgent: PHONE_UA, ipAddress: "203.0.113.9" },
          },
          conversionValue: 25,
          currency: "AED",
        },
      ],
    });
    // No hashed identifiers, so no encoding; nothing secret.
    for (const secret of [SETTINGS.clientSecret, SETTINGS.refreshToken, "ya29"])
      expect(JSON.stringify(call)).not.toContain(secret);
  });

  it("names the manager account as loginAccount only when one is set", () => {
    const body = bodyOf(only(configured({ loginCustomerId: "1112223333" }).tap?.(tap())));
    expect(body.destinations).toEqual([
      {
        operatingAccount: { accountType: "GOOGLE_ADS", accountId: "1234567890" },
        loginAccount: { accountType: "GOOGLE_ADS", accountId: "1112223333" },
        productDestinationId: "987654321",
      },
    ]);
    expect(bodyOf(only(configured().tap?.(tap()))).destinations[0]).not.toHaveProperty(
      "loginAccount",
    );
  });

  it.each([
    [EVERY_CLICK, { gclid: "gclid-1" }],
    [{ gbraid: "gbraid-1", wbraid: "wbraid-1" }, { gbraid: "gbraid-1" }],
    [{ wbraid: "wbraid-1" }, { wbraid: "wbraid-1" }],
  ])("carries exactly one click id of %j, gclid first: %j", (campaign, click) => {
    const tapIds = eventOf(only(configured().tap?.(tap({ campaign })))).adIdentifiers;
    expect(tapIds).toEqual({ ...click, landingPageDeviceInfo: expect.any(Object) });
    const chatIds = eventOf(
      only(configured().chat?.(chat({ lead: lead({ campaign }) }))),
    ).adIdentifiers;
    expect(chatIds).toEqual(click);
  });

  it("leaves out a user agent too long to be a browser's, and keeps the address", () => {
    const device = eventOf(only(configured().tap?.(tap({ userAgent: "x".repeat(1025) }))))
      .adIdentifiers.landingPageDeviceInfo;
    expect(device).toEqual({ ipAddress: "203.0.113.9" });
  });

  it("for the chat: its own action, the same transaction id, the chat's time, and the hashed phone as HEX", () => {
    const call = only(configured().chat?.(chat()));
    expect(call).toMatchObject({ url: INGEST_URL, at: LATER, lead: LEAD_ID });
    expect(bodyOf(call)).toEqual({
      destinations: [
        {
          operatingAccount: { accountType: "GOOGLE_ADS", accountId: "1234567890" },
          productDestinationId: "111",
        },
      ],
      encoding: "HEX",
      events: [
        {
          transactionId: LEAD_ID,
          eventTimestamp: "2026-11-27T12:00:00+04:00",
          eventSource: "WEB",
          // The device is the landing page's, told with the tap only.
          adIdentifiers: { gclid: "gclid-1" },
          userData: { userIdentifiers: [{ phoneNumber: PHONE }] },
          conversionValue: 10,
          currency: "AED",
        },
      ],
    });
    expect(call.body).not.toContain(WA_ID);
  });

  it.each([
    ["qualified", "222"],
    ["installed", "333"],
  ] as const)("for the %s stage: action %s, with the stage's value", (stage, action) => {
    const body = bodyOf(only(configured().stage?.(stageOf(stage, { value: 150 }))));
    expect(body.destinations[0].productDestinationId).toBe(action);
    expect(body.encoding).toBe("HEX");
    expect(body.events[0]).toMatchObject({
      transactionId: LEAD_ID,
      eventTimestamp: "2026-11-27T12:00:00+04:00",
      userData: { userIdentifiers: [{ phoneNumber: PHONE }] },
      conversionValue: 150,
      currency: "AED",
    });
  });

  it("carries no userData and no encoding before a chat gave a phone", () => {
    const body = bodyOf(only(configured().stage?.(stageOf("qualified", { phone: undefined }))));
    expect(body).not.toHaveProperty("encoding");
    expect(body.events[0]).not.toHaveProperty("userData");
  });

  it("is never made for a lead without a Google click id", () => {
    const campaign = { utm_source: "google", fbclid: "f-1", ttclid: "t-1", ScCid: "s-1" };
    expect(configured().tap?.(tap({ campaign }))).toEqual([]);
    expect(configured().chat?.(chat({ lead: lead({ campaign }) }))).toEqual([]);
    expect(configured().stage?.(stageOf("installed", { lead: lead({ campaign }) }))).toEqual([]);
  });

  it("is never made for a moment without its action, a chat without a lead, or a lost lead", () => {
    const tapOnly = configured({ actions: { tap: "987654321" } });
    expect(tapOnly.chat?.(chat())).toEqual([]);
    expect(tapOnly.stage?.(stageOf("installed"))).toEqual([]);
    const installedOnly = configured({ actions: { installed: "333" } });
    expect(installedOnly.tap?.(tap())).toEqual([]);
    expect(installedOnly.stage?.(stageOf("qualified"))).toEqual([]);
    expect(only(installedOnly.stage?.(stageOf("installed")))).toBeTruthy();
    expect(configured().chat?.(chat({ lead: undefined }))).toEqual([]);
    expect(configured().stage?.(stageOf("lost"))).toEqual([]);
  });

  it("writes the event's time in RFC 3339 with Dubai's offset", () => {
    expect(dubaiTimestamp(Date.UTC(2026, 0, 1, 0, 0, 0))).toBe("2026-01-01T04:00:00+04:00");
    expect(dubaiTimestamp(Date.UTC(2026, 11, 31, 21, 59, 59, 999))).toBe(
      "2027-01-01T01:59:59+04:00",
    );
    expect(new Date(dubaiTimestamp(AT)).getTime()).toBe(AT - 400);
  });
});

describe("judgeGoogle", () => {
  it("reads a 401 as a stale token: forgotten, and the call sent again", () => {
    let invalidated = 0;
    const judge = judgeGoogle({ get: async () => "t", invalidate: () => invalidated++ });
    expect(
      judge(
        401,
        '{"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED"}}',
      ),
    ).toMatchObject({ kind: "retry", code: "401" });
    expect(invalidated).toBe(1);
    expect(judge(200, "{}")).toEqual({ kind: "delivered" });
    expect(judge(403, '{"error":{"code":403,"status":"PERMISSION_DENIED"}}')).toMatchObject({
      kind: "credentials",
      code: "403",
    });
    expect(
      judge(400, '{"error":{"code":400,"message":"bad","status":"INVALID_ARGUMENT"}}'),
    ).toEqual({ kind: "refused", code: "400", message: "bad" });
    expect(judge(429, '{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}').kind).toBe("retry");
    expect(judge(503, "").kind).toBe("retry");
    expect(invalidated).toBe(1);
  });
});

describe("the OAuth token cache", () => {
  it("fetches once for calls waiting together, keeps the token until 5 minutes before expiry, never shows it", async () => {
    let clock = AT;
    const asked: string[] = [];
    const cache = createTokenCache(SETTINGS, {
      now: () => clock,
      post: async (url, body, options) => {
        asked.push(body);
        expect(url.href).toBe(SETTINGS.oauthEndpoint);
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
    expect(Object.fromEntries(new URLSearchParams(asked[0]))).toEqual({
      grant_type: "refresh_token",
      client_id: SETTINGS.clientId,
      client_secret: SETTINGS.clientSecret,
      refresh_token: SETTINGS.refreshToken,
    });
    clock += 3599_000 - 5 * 60_000 - 1;
    expect(await cache.get()).toBe("ya29.token-1");
    clock += 2;
    expect(await cache.get()).toBe("ya29.token-2");
    cache.invalidate();
    expect(await cache.get()).toBe("ya29.token-3");
  });

  it("rejects without the answer's words when Google gives no token", async () => {
    const cache = createTokenCache(SETTINGS, {
      post: async (_url, _body, options) => {
        options.onAnswer('{"error":"invalid_grant","refresh_token":"1//refresh-token-0123456789"}');
        return 400;
      },
    });
    const error = await cache.get().catch((caught: Error) => caught);
    expect(String(error)).toContain("400");
    expect(String(error)).not.toContain("refresh-token");
    expect(error).toMatchObject({ credentials: true });
  });
});

describe("sending to Google", () => {
  const outboxes: Outbox[] = [];
  afterEach(() => {
    for (const outbox of outboxes.splice(0)) outbox.close();
  });

  /** Google's token endpoint and the Data Manager API, standing in: what each was sent. */
  function standIn(ingestStatuses: number[]) {
    const tokens: string[] = [];
    const ingests: Array<{ url: string; body: string; headers?: Record<string, string> }> = [];
    const post: Post = async (url, body, options) => {
      options.onBodySent?.();
      if (url.href === SETTINGS.oauthEndpoint) {
        tokens.push(body);
        options.onAnswer?.(
          JSON.stringify({ access_token: `ya29.token-${tokens.length}`, expires_in: 3599 }),
        );
        return 200;
      }
      ingests.push({ url: url.href, body, headers: options.headers });
      const status = ingestStatuses.shift() ?? 200;
      options.onAnswer?.(status === 200 ? "{}" : `{"error":{"code":${status}}}`);
      return status;
    };
    return { post, tokens, ingests };
  }

  /** An outbox for Google's calls as the sink makes one, posting to `post`. */
  function googleOutbox(post: Post) {
    const on = configured();
    const ledger = createLedger();
    const outbox = createOutbox({
      destination: on.name,
      ledger,
      deduplicates: on.deduplicates,
      maxAgeMs: on.maxAgeMs,
      ...on.sending({ post }),
      post,
    });
    outboxes.push(outbox);
    return { on, ledger, outbox };
  }

  it("adds the access token to the Authorization header as a call goes, never to the ledger", async () => {
    const { post, tokens, ingests } = standIn([]);
    const { on, ledger, outbox } = googleOutbox(post);
    const now = Date.now();
    const calls = [
      ...(on.tap?.(tap({ at: now })) ?? []),
      ...(on.chat?.(chat({ chat: { messageId: "wamid.1", at: now, lead: LEAD_ID } })) ?? []),
    ];
    outbox.sent(ledger.recordCalls(calls));
    await outbox.flush(2000);
    expect(ingests.map((ingest) => ingest.url)).toEqual([INGEST_URL, INGEST_URL]);
    expect(ingests.map((ingest) => ingest.headers?.Authorization)).toEqual([
      "Bearer ya29.token-1",
      "Bearer ya29.token-1",
    ]);
    // One token for both, and nothing of it (or of the refresh token) in what was kept or sent.
    expect(tokens).toHaveLength(1);
    for (const ingest of ingests) expect(ingest.body).not.toContain("ya29");
    expect(JSON.stringify(calls)).not.toContain("ya29");
    expect(JSON.stringify(calls)).not.toContain(SETTINGS.refreshToken);
  });

  it("fetches a new token after a 401, and sends the call again with it", async () => {
    const { post, tokens, ingests } = standIn([401]);
    const { on, ledger, outbox } = googleOutbox(post);
    outbox.sent(ledger.recordCalls(on.tap?.(tap({ at: Date.now() })) ?? []));
    await outbox.flush(2000);
    await outbox.flush(2000);
    expect(ingests.map((ingest) => ingest.headers?.Authorization)).toEqual([
      "Bearer ya29.token-1",
      "Bearer ya29.token-2",
    ]);
    expect(ingests[1]?.body).toBe(ingests[0]?.body);
    expect(tokens).toHaveLength(2);
    expect(outbox.stats()).toMatchObject({ sent: 1, retried: 1, queued: 0 });
  });
});
