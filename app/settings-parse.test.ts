import { hostname } from "node:os";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { TapFacts } from "~/analytics/destinations/destination.server";
import { DEFAULT_GA_ENDPOINT } from "~/analytics/destinations/ga4.server";
import {
  isPublicSiteUrl,
  parseDubaiDate,
  SAMPLE_SETTINGS,
} from "~/platform/public-settings.server";
import { databaseOf } from "~/platform/redis-database.server";
import { isLoopbackHostname } from "~/platform/setting-readers.server";
import { checkListenHost } from "~/platform/settings.server";
import { type Config, type ConfigError, configWarnings, parseConfig } from "~/settings.server";
import { configErrorFor } from "../tests/support/config-error";

const SALTED = { ANALYTICS_SALT: "a-long-enough-salt-value" };

const names = (config: Config) => config.destinations.map((destination) => destination.name);

/** Where GA4's calls go under these settings (the ledger's URL: no api_secret), or none. */
function gaUrl(config: Config): string | undefined {
  const ga4 = config.destinations.find((destination) => destination.name === "ga4");
  const batch = { clientId: "1.2", events: [{ name: "page_view", params: {} }], at: 0 };
  return ga4?.events?.(batch)[0]?.url;
}

/** A tap as the networks are told of it, to see where a destination sends its calls. */
const TAP: TapFacts = {
  id: "lead-1",
  at: 1_764_000_000_000,
  cta: "whatsapp",
  clientId: "1.2",
  address: "203.0.113.7",
  userAgent: "",
  campaign: {},
  pageUrl: () => "https://darb.example/",
  details: {},
  value: 0,
};

describe("parseConfig", () => {
  it("works with an empty environment, using the documented defaults", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: undefined,
      siteUrl: "http://localhost:3000",
      whatsappNumber: "971585550134",
      contactEmail: "hello@darb.ae",
      contactPhone: "+971 4 555 0134",
      demoUrl: "https://demo.darb.ae/",
      betaClosesAt: null,
      destinations: [],
      leadValues: { tap: 0, chat: 0, qualified: 0, installed: 0, lost: 0 },
      leadsApiToken: null,
      analyticsSalt: null,
      trustProxy: 0,
      renderCache: true,
    });
    expect(config.samples).toEqual([
      "WHATSAPP_NUMBER",
      "CONTACT_EMAIL",
      "CONTACT_PHONE",
      "DEMO_URL",
    ]);
  });

  it("reads and normalises every setting", () => {
    const config = parseConfig({
      PORT: "8080",
      HOST: "127.0.0.1",
      SITE_URL: "https://darb.ae/",
      WHATSAPP_NUMBER: "+971 (58) 555-0199",
      CONTACT_EMAIL: "support@darb.ae",
      CONTACT_PHONE: "+971 4 555 0199",
      DEMO_URL: "https://try.darb.ae/demo",
      BETA_CLOSES_AT: "2026-06-15",
      GA_MEASUREMENT_ID: "G-ABC123XYZ9",
      GA_API_SECRET: "s3cret_value-1",
      GA_MP_ENDPOINT: "http://127.0.0.1:9999/mp/collect",
      ANALYTICS_SALT: "a-long-enough-salt-value",
      TRUST_PROXY: "1",
      RENDER_CACHE: "off",
    });
    expect(config).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      siteUrl: "https://darb.ae",
      whatsappNumber: "971585550199",
      demoUrl: "https://try.darb.ae/demo",
      analyticsSalt: "a-long-enough-salt-value",
      trustProxy: 1,
      renderCache: false,
      samples: [],
    });
    // Midnight in Dubai is 20:00 UTC the day before.
    expect(config.betaClosesAt?.toISOString()).toBe("2026-06-14T20:00:00.000Z");
    expect(names(config)).toEqual(["ga4"]);
    expect(gaUrl(config)).toBe("http://127.0.0.1:9999/mp/collect?measurement_id=G-ABC123XYZ9");
    expect(config.destinations[0]?.secrets).toEqual(["s3cret_value-1"]);
  });

  it("sends GA4's calls to Google's own endpoint unless another is set", () => {
    const config = parseConfig({ GA_MEASUREMENT_ID: "G-ABC123", GA_API_SECRET: "abcdefgh" });
    expect(gaUrl(config)).toBe(`${DEFAULT_GA_ENDPOINT}?measurement_id=G-ABC123`);
  });

  it("turns on each destination its settings name, in the registry's order", () => {
    const config = parseConfig({
      META_PIXEL_ID: "123456789012345",
      META_ACCESS_TOKEN: "EAAB_test_token_0123456789",
      GA_MEASUREMENT_ID: "G-ABC123",
      GA_API_SECRET: "abcdefgh",
      SNAP_PIXEL_ID: "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
      SNAP_ACCESS_TOKEN: "snap_token_0123456789",
    });
    expect(names(config)).toEqual(["ga4", "meta", "snap"]);
  });

  it("treats blank values as unset", () => {
    expect(parseConfig({ PORT: "  ", SITE_URL: "" }).port).toBe(3000);
  });

  it.each([
    [{ SITE_URL: "nope" }, "SITE_URL", /absolute URL/],
    [{ SITE_URL: "ftp://darb.ae" }, "SITE_URL", /http/],
    [{ SITE_URL: "https://darb.ae/?a=1" }, "SITE_URL", /query/],
    [{ SITE_URL: "https://user:pw@darb.ae" }, "SITE_URL", /password/],
    [{ PORT: "abc" }, "PORT", /whole number/],
    [{ PORT: "3000.5" }, "PORT", /whole number/],
    [{ PORT: "0" }, "PORT", /1 to 65535/],
    [{ PORT: "70000" }, "PORT", /1 to 65535/],
    [{ HOST: "bad host" }, "HOST", /hostname/],
    [{ BETA_CLOSES_AT: "tomorrowish" }, "BETA_CLOSES_AT", /ISO date/],
    [{ BETA_CLOSES_AT: "2026-02-31" }, "BETA_CLOSES_AT", /ISO date/],
    [{ BETA_CLOSES_AT: "2026-06-15T25:00" }, "BETA_CLOSES_AT", /ISO date/],
    [{ WHATSAPP_NUMBER: "call me" }, "WHATSAPP_NUMBER", /international number/],
    [{ WHATSAPP_NUMBER: "123" }, "WHATSAPP_NUMBER", /international number/],
    [{ CONTACT_EMAIL: "a@b.ae?bcc=x@y.z" }, "CONTACT_EMAIL", /e-mail/],
    [{ CONTACT_EMAIL: "not an email" }, "CONTACT_EMAIL", /e-mail/],
    [{ CONTACT_PHONE: "ring ring" }, "CONTACT_PHONE", /phone number/],
    [{ DEMO_URL: "http://demo.darb.ae" }, "DEMO_URL", /https/],
    [{ DEMO_URL: "javascript:alert(1)" }, "DEMO_URL", /https/],
    [{ GA_MEASUREMENT_ID: "G-ABC123" }, "GA_API_SECRET", /must be set/],
    [{ GA_API_SECRET: "abcdefgh" }, "GA_MEASUREMENT_ID", /must be set/],
    [{ GA_MEASUREMENT_ID: "UA-1234", GA_API_SECRET: "abcdefgh" }, "GA_MEASUREMENT_ID", /G-/],
    [{ GA_MP_ENDPOINT: "http://collector.example/mp" }, "GA_MP_ENDPOINT", /loopback/],
    [{ ANALYTICS_SALT: "short" }, "ANALYTICS_SALT", /16 characters/],
    [{ META_PIXEL_ID: "123456789012345" }, "META_ACCESS_TOKEN", /must be set/],
    [{ META_ACCESS_TOKEN: "EAAB_test_token_0123456789" }, "META_PIXEL_ID", /must be set/],
    [
      { META_PIXEL_ID: "pixel-1", META_ACCESS_TOKEN: "EAAB_test_token_0123456789" },
      "META_PIXEL_ID",
      /digits/,
    ],
    [{ META_CAPI_ENDPOINT: "http://graph.example/v23.0" }, "META_CAPI_ENDPOINT", /loopback/],
    [{ META_CAPI_ENDPOINT: "https://graph.example/v23.0?x=1" }, "META_CAPI_ENDPOINT", /query/],
    [{ TRUST_PROXY: "yes" }, "TRUST_PROXY", /number of proxies/],
    [{ RENDER_CACHE: "false" }, "RENDER_CACHE", /on or off/],
    [{ ...SALTED, REDIS_URL: "redis" }, "REDIS_URL", /URL such as redis:\/\/redis:6379/],
    [{ ...SALTED, REDIS_URL: "http://redis:6379" }, "REDIS_URL", /redis: or rediss:/],
    [{ ...SALTED, REDIS_URL: "redis://redis:99999" }, "REDIS_URL", /URL such as/],
    [{ ...SALTED, REDIS_URL: "redis:///0" }, "REDIS_URL", /host/],
    [{ ...SALTED, REDIS_URL: "redis://redis:6379/zero" }, "REDIS_URL", /database number/],
    [{ ...SALTED, REDIS_URL: "redis://redis:6379/0?family=6" }, "REDIS_URL", /query/],
    [{ REDIS_URL: "redis://redis:6379" }, "ANALYTICS_SALT", /same id/],
  ])("rejects %o, naming %s", (env, variable, detail) => {
    const error = configErrorFor(env);
    expect(error.variable).toBe(variable);
    expect(error.message.startsWith(variable)).toBe(true);
    expect(error.message).toMatch(detail);
    expect(error.message).not.toContain("\n");
  });

  it("takes REDIS_URL with its credentials, and leaves it null when unset", () => {
    expect(parseConfig({}).redisUrl).toBeNull();
    for (const url of ["redis://redis:6379", "rediss://:p%40ss@cache.example:6380/2"]) {
      expect(parseConfig({ ...SALTED, REDIS_URL: url }).redisUrl).toBe(url);
    }
  });

  it("never shows REDIS_URL's password", () => {
    const error = configErrorFor({ ...SALTED, REDIS_URL: "redis://user:S3CRET@redis:6379/x" });
    expect(error.variable).toBe("REDIS_URL");
    expect(error.message).not.toContain("S3CRET");
    expect(error.message).not.toContain("redis:6379");
    expect(error.message).toContain("database number");
  });

  it("never repeats Meta's access token in its message", () => {
    const token = "EAAB secret token with spaces 0123456789";
    const error = configErrorFor({ META_PIXEL_ID: "123456789012345", META_ACCESS_TOKEN: token });
    expect(error.variable).toBe("META_ACCESS_TOKEN");
    expect(error.message).not.toContain("secret token");
  });

  it("takes Meta's Conversions API as opted in, with the pinned endpoint or a loopback stand-in", () => {
    const base = {
      META_PIXEL_ID: "123456789012345",
      META_ACCESS_TOKEN: "EAAB_test_token_0123456789",
    };
    const metaUrl = (config: Config) =>
      config.destinations.find((destination) => destination.name === "meta")?.tap?.(TAP)[0]?.url;
    expect(names(parseConfig({}))).not.toContain("meta");
    const config = parseConfig(base);
    expect(names(config)).toEqual(["meta"]);
    expect(config.destinations[0]?.secrets).toEqual(["EAAB_test_token_0123456789"]);
    expect(metaUrl(config)).toBe("https://graph.facebook.com/v23.0/123456789012345/events");
    expect(
      metaUrl(parseConfig({ ...base, META_CAPI_ENDPOINT: "http://127.0.0.2:9999/meta/" })),
    ).toBe("http://127.0.0.2:9999/meta/123456789012345/events");
  });

  it("never repeats the API secret in its message", () => {
    const error = configErrorFor({
      GA_MEASUREMENT_ID: "G-ABC123",
      GA_API_SECRET: "has spaces in it!",
    });
    expect(error.message).not.toContain("has spaces");
  });
});

describe("the sample contact settings", () => {
  const OWN = {
    WHATSAPP_NUMBER: "971501234567",
    CONTACT_EMAIL: "team@darb.ae",
    CONTACT_PHONE: "+971 4 123 4567",
    DEMO_URL: "https://demo.darb.ae/try",
  };

  it.each([
    ["https://darb.ae", true],
    ["https://www.darb.ae/landing", true],
    ["http://203.0.113.7:8080", true],
    ["http://[2001:db8::7]", true],
    ["http://localhost:3000", false],
    ["http://127.0.0.1:3000", false],
    ["http://[::1]:3000", false],
    ["https://darb.example", false],
    ["https://staging.darb.test", false],
    ["https://darb.invalid", false],
    ["http://site.localhost", false],
    ["https://example.com", false],
    ["https://www.example.org", false],
    ["https://example.net.", false],
    ["http://site-1:3000", false],
    ["http://10.0.0.5", false],
    ["http://192.168.1.20:3000", false],
    ["http://172.20.0.3", false],
    ["http://[fd00::5]", false],
    ["https://example.com.ae", true],
    ["https://myexample.com", true],
  ])("%s is public: %s", (url, isPublic) => {
    expect(isPublicSiteUrl(url)).toBe(isPublic);
  });

  it("refuses them on a public SITE_URL, unset or as .env.example writes them, naming the first", () => {
    const site = { SITE_URL: "https://darb.ae" };
    const unset = configErrorFor(site);
    expect(unset.variable).toBe("WHATSAPP_NUMBER");
    expect(unset.message).toMatch(/^WHATSAPP_NUMBER must be the site's own .*: it is unset, /);
    const written = configErrorFor({ ...site, ...SAMPLE_SETTINGS });
    expect(written.variable).toBe("WHATSAPP_NUMBER");
    expect(written.message).toContain("it is .env.example's sample, 971585550134");
    // The first still at its sample, however it is written.
    for (const [name, value] of [
      ["WHATSAPP_NUMBER", "+971 58 555 0134"],
      ["CONTACT_EMAIL", "Hello@Darb.ae"],
      ["CONTACT_PHONE", "+971-4-555-0134"],
      ["DEMO_URL", "https://DEMO.darb.ae"],
    ] as const) {
      expect(configErrorFor({ ...site, ...OWN, [name]: value }).variable).toBe(name);
    }
    expect(parseConfig({ ...site, ...OWN }).samples).toEqual([]);
  });

  it("serves them, naming them, on a laptop, a reserved name or with SITE_URL unset", () => {
    for (const SITE_URL of ["", "http://localhost:3000", "https://darb.example"]) {
      expect(parseConfig({ SITE_URL }).samples).toEqual(Object.keys(SAMPLE_SETTINGS));
      expect(parseConfig({ SITE_URL, ...SAMPLE_SETTINGS, ...OWN }).samples).toEqual([]);
      expect(parseConfig({ SITE_URL, CONTACT_EMAIL: "hello@darb.ae" }).samples).toEqual(
        Object.keys(SAMPLE_SETTINGS),
      );
    }
  });
});

describe("LOG_LEADS and REPLICA_ID", () => {
  it("log no lead and name the replica after the machine by default", () => {
    const config = parseConfig({});
    expect(config.logLeads).toBe(false);
    expect(config.replicaId).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
    expect(config.replicaId).toBe(
      hostname()
        .replace(/[^A-Za-z0-9._-]/g, "-")
        .slice(0, 64),
    );
  });

  it("take 1 or 0, and a name of 1 to 64 letters, digits, '.', '_' or '-'", () => {
    expect(parseConfig({ LOG_LEADS: "1" }).logLeads).toBe(true);
    expect(parseConfig({ LOG_LEADS: "0" }).logLeads).toBe(false);
    expect(parseConfig({ REPLICA_ID: "site-1" }).replicaId).toBe("site-1");
    expect(parseConfig({ REPLICA_ID: "eu.web_2" }).replicaId).toBe("eu.web_2");
    expect(parseConfig({ REPLICA_ID: "r".repeat(64) }).replicaId).toHaveLength(64);
  });

  it.each([
    [{ LOG_LEADS: "yes" }, "LOG_LEADS", /1 or 0, got "yes"/],
    [{ LOG_LEADS: "true" }, "LOG_LEADS", /1 or 0/],
    [{ REPLICA_ID: "site 1" }, "REPLICA_ID", /1 to 64 letters/],
    [{ REPLICA_ID: "r".repeat(65) }, "REPLICA_ID", /1 to 64/],
    [{ REPLICA_ID: 'a"b' }, "REPLICA_ID", /letters, digits/],
    [{ REPLICA_ID: "site/1" }, "REPLICA_ID", /letters, digits/],
  ])("refuses %j, naming %s", (env, variable, detail) => {
    const error = configErrorFor(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toMatch(detail);
  });
});

describe("REDIS_URL's database", () => {
  it("is the URL's path, 0 without one", () => {
    expect(databaseOf("redis://redis:6379")).toBe(0);
    expect(databaseOf("redis://redis:6379/")).toBe(0);
    expect(databaseOf("redis://:p%2Fw@redis:6379/7")).toBe(7);
    expect(databaseOf("rediss://cache.example/15")).toBe(15);
  });
});

describe("the lead ledger's settings", () => {
  it("keeps the ledger in ./data for 90 days, with no webhook and no metrics, by default", () => {
    const config = parseConfig({});
    expect(config.dataDir).toBe(resolve("data"));
    expect(config.leadRetentionDays).toBe(90);
    expect(config.whatsapp).toBeNull();
    expect(config.metricsPort).toBeNull();
  });

  it("takes them when they are sound", () => {
    const config = parseConfig({
      DATA_DIR: "/var/lib/darb",
      LEAD_RETENTION_DAYS: "30",
      WHATSAPP_VERIFY_TOKEN: "my-verify-token",
      WHATSAPP_APP_SECRET: "0123456789abcdef0123456789ABCDEF",
      METRICS_PORT: "9464",
    });
    expect(config).toMatchObject({
      dataDir: "/var/lib/darb",
      leadRetentionDays: 30,
      whatsapp: {
        verifyToken: "my-verify-token",
        appSecret: "0123456789abcdef0123456789ABCDEF",
      },
      metricsPort: 9464,
    });
  });

  it.each([
    [{ LEAD_RETENTION_DAYS: "0" }, "LEAD_RETENTION_DAYS"],
    [{ LEAD_RETENTION_DAYS: "1.5" }, "LEAD_RETENTION_DAYS"],
    [{ LEAD_RETENTION_DAYS: "9999" }, "LEAD_RETENTION_DAYS"],
    [{ WHATSAPP_VERIFY_TOKEN: "my-verify-token" }, "WHATSAPP_APP_SECRET"],
    [{ WHATSAPP_APP_SECRET: "0123456789abcdef0123456789abcdef" }, "WHATSAPP_VERIFY_TOKEN"],
    [
      { WHATSAPP_VERIFY_TOKEN: "short", WHATSAPP_APP_SECRET: "0123456789abcdef0123456789abcdef" },
      "WHATSAPP_VERIFY_TOKEN",
    ],
    [
      { WHATSAPP_VERIFY_TOKEN: "my-verify-token", WHATSAPP_APP_SECRET: "not-hex-secret-value" },
      "WHATSAPP_APP_SECRET",
    ],
    [{ METRICS_PORT: "0" }, "METRICS_PORT"],
    [{ METRICS_PORT: "http" }, "METRICS_PORT"],
    [{ METRICS_PORT: "3000" }, "METRICS_PORT"],
    [{ DATA_DIR: "a\nb" }, "DATA_DIR"],
  ])("refuses %j, naming %s", (env, variable) => {
    expect(configErrorFor(env).variable).toBe(variable);
  });

  it("never shows a WhatsApp secret back", () => {
    const secret = "zz-secret-that-is-not-hex-0000000";
    const error = configErrorFor({
      WHATSAPP_VERIFY_TOKEN: "my-verify-token",
      WHATSAPP_APP_SECRET: secret,
    });
    expect(error.message).not.toContain(secret);
    const token = "tok en with space";
    const other = configErrorFor({
      WHATSAPP_VERIFY_TOKEN: token,
      WHATSAPP_APP_SECRET: "0123456789abcdef0123456789abcdef",
    });
    expect(other.message).not.toContain(token);
  });
});

describe("LEAD_VALUE_AED", () => {
  const values = (raw: string) => parseConfig({ LEAD_VALUE_AED: raw }).leadValues;
  const none = { tap: 0, chat: 0, qualified: 0, installed: 0, lost: 0 };

  it("is 0 for every moment unless set", () => {
    expect(parseConfig({}).leadValues).toEqual(none);
    expect(values("  ")).toEqual(none);
  });

  it("takes amounts per moment, the unnamed ones 0", () => {
    expect(values("installed=150,qualified=40")).toEqual({
      ...none,
      installed: 150,
      qualified: 40,
    });
    expect(values(" tap = 5 , chat=12.5,lost=0 ")).toEqual({ ...none, tap: 5, chat: 12.5 });
  });

  it("takes one number as the tap's value", () => {
    expect(values("25")).toEqual({ ...none, tap: 25 });
    expect(values("0.75")).toEqual({ ...none, tap: 0.75 });
  });

  it.each([
    "-5",
    "abc",
    "1e3",
    "12.345",
    "installed",
    "installed=",
    "=150",
    "installed=150,",
    "installed=150;qualified=40",
    "bought=150",
    "installed=-1",
    "installed=Infinity",
    "installed=99999999",
  ])("refuses %j with one line naming it and what it takes", (raw) => {
    const error = configErrorFor({ LEAD_VALUE_AED: raw });
    expect(error.variable).toBe("LEAD_VALUE_AED");
    expect(error.message.startsWith("LEAD_VALUE_AED ")).toBe(true);
    expect(error.message).toContain("installed=150,qualified=40");
    expect(error.message).not.toContain("\n");
  });
});

describe("instantReply", () => {
  const WEBHOOK = {
    WHATSAPP_VERIFY_TOKEN: "verify-token-1",
    WHATSAPP_APP_SECRET: "0123456789abcdef0123456789abcdef",
  };
  const REPLY = {
    ...WEBHOOK,
    WHATSAPP_ACCESS_TOKEN: "EAAG_system_user_token_0123456789",
    WHATSAPP_PHONE_NUMBER_ID: "106540352242922",
  };
  const LINKS = {
    BETA_LINK_IOS: "https://testflight.apple.com/join/AbCdEf12",
    BETA_LINK_ANDROID: "https://play.google.com/apps/testing/ae.darb.app",
  };

  it("is on only while the chat's reply sends the link for either phone itself", () => {
    expect(parseConfig({}).instantReply).toBe(false);
    expect(parseConfig({ ...REPLY, ...LINKS }).instantReply).toBe(true);
    // The reply without a link says when a person answers; with one link, an Android phone
    // could be sent the iPhone's.
    expect(parseConfig(REPLY).instantReply).toBe(false);
    expect(parseConfig({ ...REPLY, BETA_LINK_IOS: LINKS.BETA_LINK_IOS }).instantReply).toBe(false);
    expect(
      parseConfig({ ...REPLY, BETA_LINK_ANDROID: LINKS.BETA_LINK_ANDROID, BETA_LINK_IOS: " " })
        .instantReply,
    ).toBe(false);
    // Links with no reply to carry them: the team sends them, within the hour.
    expect(parseConfig({ ...WEBHOOK, ...LINKS }).instantReply).toBe(false);
  });
});

describe("LEADS_API_TOKEN", () => {
  const token = "0123456789abcdef".repeat(4);

  it("is null (the stage API off) unless set, and the token when set", () => {
    expect(parseConfig({}).leadsApiToken).toBeNull();
    expect(parseConfig({ LEADS_API_TOKEN: token }).leadsApiToken).toBe(token);
    expect(parseConfig({ LEADS_API_TOKEN: ` ${token} ` }).leadsApiToken).toBe(token);
    // The shortest and the longest it takes, of any visible characters.
    for (const taken of ["!~".repeat(16), "x".repeat(256)]) {
      expect(parseConfig({ LEADS_API_TOKEN: taken }).leadsApiToken).toBe(taken);
    }
  });

  it.each([
    ["31 characters", "a".repeat(31)],
    ["257 characters", "a".repeat(257)],
    ["a space", `${"a".repeat(20)} ${"b".repeat(20)}`],
    ["a non-ASCII letter", `${"a".repeat(32)}é`],
  ])("refuses a token of %s, never showing it back", (_label, raw) => {
    const error = configErrorFor({ LEADS_API_TOKEN: raw });
    expect(error.variable).toBe("LEADS_API_TOKEN");
    expect(error.message).toMatch(/32 to 256 visible characters/);
    expect(error.message).not.toContain(raw.slice(0, 20));
    expect(error.message).not.toContain("\n");
  });
});

describe("the company settings", () => {
  it("are each null while unset, and taken as one line when set", () => {
    expect(parseConfig({}).company).toEqual({ name: null, licence: null, address: null });
    const config = parseConfig({
      COMPANY_NAME: "  Darb Technologies   FZ-LLC ",
      COMPANY_LICENCE: "DMCC-123456",
      COMPANY_ADDRESS: "Unit 1203, Jumeirah Lakes Towers, Dubai, UAE",
    });
    expect(config.company).toEqual({
      name: "Darb Technologies FZ-LLC",
      licence: "DMCC-123456",
      address: "Unit 1203, Jumeirah Lakes Towers, Dubai, UAE",
    });
    // Arabic is text like any other; only one of the three may be set.
    expect(parseConfig({ COMPANY_NAME: "شركة درب للتقنية" }).company).toEqual({
      name: "شركة درب للتقنية",
      licence: null,
      address: null,
    });
  });

  it.each([
    ["COMPANY_NAME", "Darb\nFake Line"],
    ["COMPANY_NAME", "Darb\u0007"],
    ["COMPANY_LICENCE", "123\u202e456"],
    ["COMPANY_ADDRESS", "Dubai\u2028UAE"],
    ["COMPANY_NAME", "x".repeat(121)],
    ["COMPANY_LICENCE", "1".repeat(41)],
    ["COMPANY_ADDRESS", "a".repeat(201)],
  ])("refuses a bad %s without showing it back", (variable, value) => {
    const error = configErrorFor({ [variable]: value });
    expect(error.variable).toBe(variable);
    expect(error.message).not.toContain(value.slice(0, 20));
  });

  it("counts characters, not UTF-16 units: 120 Arabic letters with a supplementary one pass", () => {
    expect(parseConfig({ COMPANY_NAME: `${"د".repeat(119)}𝐃` }).company.name).toHaveLength(121);
  });
});

describe("parseDubaiDate", () => {
  it("honours an explicit offset", () => {
    expect(parseDubaiDate("2026-06-15T18:00Z")?.toISOString()).toBe("2026-06-15T18:00:00.000Z");
    expect(parseDubaiDate("2026-06-15T18:00:30+02:00")?.toISOString()).toBe(
      "2026-06-15T16:00:30.000Z",
    );
  });
  it("reads a time without an offset as Dubai time", () => {
    expect(parseDubaiDate("2026-06-15T18:00")?.toISOString()).toBe("2026-06-15T14:00:00.000Z");
  });
  it.each(["", "15/06/2026", "2026-6-15", "2026-13-01", "2026-06-15T18", "2026-06-15 18:00"])(
    "rejects %j",
    (raw) => expect(parseDubaiDate(raw)).toBeNull(),
  );
});

describe("HOST", () => {
  it.each(["127.0.0.1", "0.0.0.0", "::", "::1", "localhost", "darb-web", "web.internal.", "db_1"])(
    "accepts %s",
    (host) => {
      expect(parseConfig({ HOST: host }).host).toBe(host);
    },
  );

  it.each(["999.1.1.1", "10.0.0", "1.2.3.4.5", "-bad", "a..b", "x y", "::zz", "host name"])(
    "rejects %s at once",
    (host) => {
      expect(configErrorFor({ HOST: host }).variable).toBe("HOST");
    },
  );

  it("must resolve, to an address of this machine", async () => {
    const resolvesTo = (address: string) => async () => address;
    await expect(checkListenHost(undefined)).resolves.toBeUndefined();
    await expect(checkListenHost("web", resolvesTo("127.0.0.9"))).resolves.toBeUndefined();
    await expect(checkListenHost("any", resolvesTo("0.0.0.0"))).resolves.toBeUndefined();
    await expect(checkListenHost("far", resolvesTo("192.0.2.7"))).rejects.toThrow(
      /^HOST must be an address of this machine .*"far" \(192\.0\.2\.7\)$/,
    );
    const fails = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND nope"), { code: "ENOTFOUND" });
    };
    await expect(checkListenHost("nope", fails)).rejects.toThrow(
      /^HOST does not resolve to an address, got "nope"$/,
    );
  });
});

describe("URLs in error messages", () => {
  const SECRET = "Pw0rd";
  // Passwords and tokens with every character that ends a URL's parts early, and non-URLs.
  const values = [
    `redis://user:pa/ss${SECRET}@127.0.0.1:6390/0`,
    `redis://user:pa?ss${SECRET}@127.0.0.1:6390/0`,
    `redis://user:pa#ss${SECRET}@127.0.0.1:6390/0`,
    `redis://user:pa@ss${SECRET}@127.0.0.1:6390/0?x`,
    `redis://user:pa:ss${SECRET}@127.0.0.1:6390/9/9`,
    `redis://user:4321/${SECRET}@127.0.0.1`,
    `garbage ${SECRET}`,
    `${SECRET}:x`,
    `http://x.example/mp?api_secret=${SECRET}`,
    `https://user:${SECRET}@x.example/p#${SECRET}`,
    `not a url?api_secret=${SECRET}`,
    `x://a:${SECRET}@b`,
    `http://${SECRET}.example/v23.0`,
  ];
  const variables = ["REDIS_URL", "GA_MP_ENDPOINT", "META_CAPI_ENDPOINT", "SITE_URL", "DEMO_URL"];

  it.each(variables.flatMap((variable) => values.map((value) => [variable, value] as const)))(
    "%s=%s is named, said what is wrong, and not repeated",
    (variable, value) => {
      const env: Record<string, string> = { ...SALTED, [variable]: value };
      let error: ConfigError | undefined;
      try {
        parseConfig(env);
      } catch (thrown) {
        error = thrown as ConfigError;
      }
      // A value the setting accepts is fine; one it refuses is refused without being shown.
      if (error === undefined) return;
      expect(error.variable).toBe(variable);
      expect(error.message).toMatch(new RegExp(`^${variable} must `));
      expect(error.message).not.toContain(SECRET);
      expect(error.message).not.toContain("127.0.0.1");
      expect(error.message).not.toContain("x.example");
    },
  );

  it("refuses each Redis value above that hides a password's / ? # in it", () => {
    for (const value of values.slice(0, 8)) {
      expect(configErrorFor({ ...SALTED, REDIS_URL: value }).variable).toBe("REDIS_URL");
    }
  });

  it.each([
    ["localhost", true],
    ["127.0.0.1", true],
    ["127.0.0.2", true],
    ["127.255.255.254", true],
    ["[::1]", true],
    ["128.0.0.1", false],
    ["127.example", false],
    ["10.0.0.1", false],
  ])("loopback %s: %s", (hostname, loopback) => {
    expect(isLoopbackHostname(hostname)).toBe(loopback);
    const env = { GA_MP_ENDPOINT: `http://${hostname}:9/mp/collect` };
    const ga = { GA_MEASUREMENT_ID: "G-ABC123", GA_API_SECRET: "abcdefgh" };
    if (loopback) expect(gaUrl(parseConfig({ ...env, ...ga }))).toContain(hostname);
    else expect(configErrorFor(env).variable).toBe("GA_MP_ENDPOINT");
  });
});

describe("configWarnings", () => {
  it("names an unset SITE_URL, the sample contact settings, the unset company and BETA_CLOSES_AT, one line each", () => {
    expect(configWarnings(parseConfig({}))).toEqual([
      expect.stringMatching(/^SITE_URL not set; .* http:\/\/localhost:3000$/),
      expect.stringMatching(/^WHATSAPP_NUMBER, .* not set or left at \.env\.example's; /),
      expect.stringMatching(/^COMPANY_NAME, COMPANY_LICENCE, COMPANY_ADDRESS not set; /),
      expect.stringMatching(/^BETA_CLOSES_AT not set; /),
    ]);
    // A reserved name, as the tests use: samples allowed, and warned about.
    expect(configWarnings(parseConfig({ SITE_URL: "https://darb.example" }))).toHaveLength(3);
  });

  it("names only the company settings still unset, and none once all three are set", () => {
    const company = { COMPANY_NAME: "Darb FZ-LLC", COMPANY_LICENCE: "12345" };
    expect(configWarnings(parseConfig(company)).filter((w) => w.includes("COMPANY"))).toEqual([
      expect.stringMatching(/^COMPANY_ADDRESS not set; /),
    ]);
    const all = { ...company, COMPANY_ADDRESS: "Dubai, UAE" };
    expect(configWarnings(parseConfig(all)).join("\n")).not.toContain("COMPANY");
  });

  it("adds each destination's own warnings, such as a test event code left on", () => {
    const meta = {
      META_PIXEL_ID: "123456789012345",
      META_ACCESS_TOKEN: "EAAB_test_token_0123456789",
    };
    const testing = (env: Record<string, string>) =>
      configWarnings(parseConfig(env)).filter((line) => line.includes("TEST_EVENT_CODE"));
    expect(testing(meta)).toEqual([]);
    expect(testing({ ...meta, META_TEST_EVENT_CODE: "TEST12345" })).toEqual([
      expect.stringMatching(/^META_TEST_EVENT_CODE is set/),
    ]);
  });

  it("names an unset BETA_CLOSES_AT, whose countdown is each visitor's own, and not a set one", () => {
    const beta = (env: Record<string, string>) =>
      configWarnings(parseConfig(env)).filter((line) => line.includes("BETA_CLOSES_AT"));
    expect(beta({})).toEqual([
      "BETA_CLOSES_AT not set; each visitor's countdown runs two days from their first visit",
    ]);
    expect(beta({ BETA_CLOSES_AT: "2026-12-31" })).toEqual([]);
  });
});
