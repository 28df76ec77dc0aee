import { describe, expect, it } from "vitest";
import { configure, type PrivacyWords } from "~/analytics/destinations/destination.server";
import { destinationNames } from "~/analytics/destinations/registry.server";
import { legal as arLegal } from "~/content/ar/legal";
import { copyFor } from "~/content/copy.server";
import { legal } from "~/content/legal";
import { CAMPAIGN_COOKIE, FBP_COOKIE } from "~/leads/attribution-cookies.server";
import { refInText } from "~/leads/chat-ref";
import type { LegalDocument } from "~/pages/legal-text.server";
import { EXAMPLE_REF, privacyNotice, recipientsOn } from "~/pages/privacy-notice.server";
import { type Config, parseConfig } from "~/settings.server";
import { BETA_START_KEY } from "~/shared/countdown";
import { CLIENT_EVENTS } from "~/shared/events";
import { EXPOSURE_EVENT } from "~/shared/experiment";
import { HINT_COOKIE } from "~/shared/language-cookie";
import { LOCALES, type Locale } from "~/shared/locale";
import { legalText } from "../../tests/support/legal-text";

const GA = { GA_MEASUREMENT_ID: "G-TEST12345", GA_API_SECRET: "test_secret_1" };
const META = { META_PIXEL_ID: "123456789", META_ACCESS_TOKEN: "EAAB_test_token_01234567" };
const TIKTOK = {
  TIKTOK_PIXEL_CODE: "C4ABCDEF0123456789",
  TIKTOK_ACCESS_TOKEN: "tiktok_token_0123456789",
};
const SNAP = {
  SNAP_PIXEL_ID: "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  SNAP_ACCESS_TOKEN: "snap_token_0123456789",
};
const GOOGLE = {
  GOOGLE_ADS_CUSTOMER_ID: "123-456-7890",
  GOOGLE_ADS_CONVERSION_ACTION: "987654321",
  GOOGLE_ADS_CLIENT_ID: "123-abc.apps.googleusercontent.com",
  GOOGLE_ADS_CLIENT_SECRET: "client_secret_1",
  GOOGLE_ADS_REFRESH_TOKEN: "1//refresh-token-0123",
};
const STAGE_API = { LEADS_API_TOKEN: "0123456789abcdef".repeat(4) };
const WEBHOOK = {
  WHATSAPP_VERIFY_TOKEN: "my-verify-token",
  WHATSAPP_APP_SECRET: "0123456789abcdef0123456789abcdef",
};
/** The chat's automatic reply: it needs the webhook's settings too. */
const REPLY = {
  ...WEBHOOK,
  WHATSAPP_ACCESS_TOKEN: "EAAG_system_user_token_0123456789",
  WHATSAPP_PHONE_NUMBER_ID: "106540352242922",
};

function notice(env: Record<string, string> = {}, locale: Locale = "en"): LegalDocument {
  return privacyNotice({ copy: copyFor(locale), locale, config: parseConfig(env) });
}

const ids = (document: LegalDocument) => document.sections.map((section) => section.id);

describe("the privacy notice", () => {
  it("names Google Analytics and Meta only while their settings are set, in that order", () => {
    const none = notice();
    expect(ids(none)).not.toContain("ga4");
    expect(ids(none)).not.toContain("meta");
    expect(legalText(none, "recipients")).toContain(legal.privacy.recipients.none);
    expect(legalText(none)).not.toMatch(/Google Analytics 4|Conversions|SHA-256/);

    expect(ids(notice(GA))).toContain("ga4");
    expect(ids(notice(GA))).not.toContain("meta");
    expect(ids(notice(META))).toContain("meta");
    expect(ids(notice(META))).not.toContain("ga4");
    const both = ids(notice({ ...GA, ...META }));
    expect(both.slice(both.indexOf("recipients"), both.indexOf("recipients") + 3)).toEqual([
      "recipients",
      "ga4",
      "meta",
    ]);
    expect(legalText(notice(GA), "recipients")).toContain(legal.privacy.recipients.some);
  });

  it("has words in content/legal.ts, in both languages, for every destination the registry has", () => {
    expect(Object.keys(legal.privacy.services)).toEqual(destinationNames());
    expect(Object.keys(arLegal.privacy.services)).toEqual(destinationNames());
  });

  it("lists the destinations the settings turn on, in the registry's order, in the page's words", () => {
    const config = parseConfig({ ...TIKTOK, ...META, ...GA });
    expect(recipientsOn(config, copyFor("en"), "en")).toEqual([
      { id: "ga4", words: legal.privacy.services.ga4 },
      { id: "meta", words: legal.privacy.services.meta },
      { id: "tiktok", words: legal.privacy.services.tiktok },
    ]);
    expect(recipientsOn(config, copyFor("ar"), "ar").map(({ words }) => words)).toEqual([
      arLegal.privacy.services.ga4,
      arLegal.privacy.services.meta,
      arLegal.privacy.services.tiktok,
    ]);
    expect(recipientsOn(parseConfig({}), copyFor("en"), "en")).toEqual([]);
  });

  it("names a network only the tests have in its own words, in each language", () => {
    const words = (heading: string): PrivacyWords => ({
      heading,
      body: [`${heading} gets the tap.`],
      chat: `${heading} hears of the chat ({hash}).`,
    });
    const standIn = configure(
      {
        name: "standin",
        settings: { names: [], read: () => ({}) },
        maxAgeMs: 1000,
        deduplicates: true,
        secrets: () => [],
        moments: () => new Set(["tap"] as const),
        privacy: { en: words("Stand-in"), ar: words("بديل") },
      },
      {},
    );
    const base = parseConfig({ ...GA, ...WEBHOOK });
    const config: Config = { ...base, destinations: [...base.destinations, standIn] };
    expect(recipientsOn(config, copyFor("en"), "en").map(({ id }) => id)).toEqual([
      "ga4",
      "standin",
    ]);
    const en = privacyNotice({ copy: copyFor("en"), locale: "en", config });
    const after = ids(en).indexOf("recipients") + 1;
    expect(ids(en).slice(after, after + 2)).toEqual(["ga4", "standin"]);
    expect(legalText(en, "standin")).toContain("Stand-in gets the tap.");
    expect(legalText(en, "standin")).toContain("Stand-in hears of the chat (SHA-256).");
    const ar = privacyNotice({ copy: copyFor("ar"), locale: "ar", config });
    expect(legalText(ar, "standin")).toContain("بديل gets the tap.");
  });

  it("says what Meta gets, and that it gets it for leads only", () => {
    const meta = legalText(notice(META), "meta");
    for (const words of [
      "IP address",
      "user agent",
      "SHA-256",
      "fbclid",
      "fbc",
      "only for leads",
    ]) {
      expect(meta).toContain(words);
    }
  });

  it("tells of the webhook, and of the chat events each service gets, only while it is set up", () => {
    const off = notice({ ...GA, ...META });
    expect(legalText(off, "chat")).not.toContain(legal.privacy.chat.webhook);
    expect(legalText(off)).not.toContain("working_lead");
    const on = notice({ ...GA, ...META, ...TIKTOK, ...WEBHOOK });
    const hashed = (template: string) => template.replace("{hash}", "SHA-256");
    expect(legalText(on, "chat")).toContain(hashed(legal.privacy.chat.webhook));
    expect(legalText(on, "ga4")).toContain("working_lead");
    // Each network that hears of the chat says it gets the hashed WhatsApp number.
    expect(legalText(on, "meta")).toContain(hashed(legal.privacy.services.meta.chat));
    expect(legalText(on, "tiktok")).toContain(hashed(legal.privacy.services.tiktok.chat));
    expect(legalText(on, "tiktok")).toContain("SHA-256");
  });

  it("tells of the automatic reply, and that the number is kept encrypted for it, only while it is on", () => {
    const hashed = (template: string) => template.replace("{hash}", "SHA-256");
    for (const [locale, words] of [
      ["en", legal],
      ["ar", arLegal],
    ] as const) {
      const chat = words.privacy.chat;
      const reply = words.privacy.services.whatsapp;
      const webhookOnly = notice({ ...GA, ...WEBHOOK }, locale);
      expect(ids(webhookOnly)).not.toContain("whatsapp");
      expect(legalText(webhookOnly, "chat")).toContain(`${chat.webhook} ${hashed(chat.number)}`);
      expect(legalText(webhookOnly, "chat")).not.toContain(hashed(chat.numberReplying));

      const on = notice({ ...GA, ...REPLY }, locale);
      // Named after the networks, as the registry orders it.
      expect(ids(on).indexOf("whatsapp")).toBe(ids(on).indexOf("ga4") + 1);
      expect(legalText(on, "whatsapp")).toContain(reply.heading);
      expect(legalText(on, "whatsapp")).toContain(reply.body[0]);
      expect(legalText(on, "whatsapp")).toContain(reply.chat);
      expect(legalText(on, "chat")).toContain(`${chat.webhook} ${hashed(chat.numberReplying)}`);
      expect(legalText(on, "chat")).not.toContain(hashed(chat.number));
      // Where a visitor asks for their data: no longer "no phone number" while one waits sealed.
      const [rightsOff] = words.privacy.rights.body;
      expect(legalText(webhookOnly, "rights")).toContain(rightsOff.split("{email}")[1]);
      expect(legalText(on, "rights")).toContain(words.privacy.rights.replying.split("{email}")[1]);
      expect(legalText(on, "rights")).not.toContain(rightsOff.split("{email}")[1]);
      // With the reply alone on, the notice still names a recipient.
      expect(legalText(notice(REPLY, locale), "recipients")).toContain(
        words.privacy.recipients.some,
      );
    }
    const english = legalText(notice(REPLY), "whatsapp");
    for (const claim of ["Cloud API", "encrypted", "24 hours", "never used for anything else"]) {
      expect(english).toContain(claim);
    }
    expect(legalText(notice(REPLY), "chat")).toMatch(/encrypted, for our automatic reply/);
  });

  it("tells of the later stages each service gets only while the stage API is on", () => {
    const services = legal.privacy.services;
    const off = notice({ ...GA, ...META });
    expect(legalText(off, "ga4")).not.toContain(services.ga4.stages);
    expect(legalText(off, "meta")).not.toContain(services.meta.stages);
    const on = notice({ ...GA, ...META, ...STAGE_API });
    expect(legalText(on, "ga4")).toContain(services.ga4.stages);
    expect(legalText(on, "meta")).toContain(services.meta.stages);
    expect(legalText(notice({ ...GA, ...STAGE_API }, "ar"), "ga4")).toContain(
      arLegal.privacy.services.ga4.stages,
    );
  });

  it("keeps leads for LEAD_RETENTION_DAYS, counted in each language", () => {
    expect(legalText(notice(), "leads")).toContain("Leads are kept for 90 days, then erased.");
    expect(legalText(notice({ LEAD_RETENTION_DAYS: "30" }), "leads")).toContain("for 30 days");
    expect(legalText(notice({ LEAD_RETENTION_DAYS: "1" }), "leads")).toContain("for 1 day,");
    expect(legalText(notice({}, "ar"), "leads")).toContain("مدة 90 يومًا");
    expect(legalText(notice({ LEAD_RETENTION_DAYS: "2" }, "ar"), "leads")).toContain("مدة يومين");
    expect(legalText(notice({ LEAD_RETENTION_DAYS: "7" }, "ar"), "leads")).toContain("مدة 7 أيام");
  });

  it("names the cookie, the events and the header as the code does", () => {
    const text = legalText(notice());
    expect(text).toContain(HINT_COOKIE);
    expect(text).toContain("Sec-GPC: 1");
    for (const name of [...CLIENT_EVENTS, "generate_lead", "conversion"]) {
      expect(legalText(notice(), "events")).toContain(`${name}: `);
    }
  });

  it("names the campaign's cookie with each network's window, and Meta's only while Meta is on", () => {
    for (const locale of ["en", "ar"] as const) {
      const off = legalText(notice({}, locale), "storage");
      expect(off).toContain(CAMPAIGN_COOKIE);
      expect(off).not.toContain(FBP_COOKIE);
      for (const days of ["90", "28", "7"]) expect(off).toContain(days);
      const on = notice(META, locale);
      expect(legalText(on, "storage")).toContain(FBP_COOKIE);
      expect(legalText(on, "meta")).toContain(FBP_COOKIE);
    }
  });

  it("names the countdown's storage key while the countdown keeps it, in both languages", () => {
    for (const locale of ["en", "ar"] as const) {
      expect(legalText(notice({}, locale), "storage")).toContain(BETA_START_KEY);
      const fixed = notice({ BETA_CLOSES_AT: "2026-12-31" }, locale);
      expect(legalText(fixed, "storage")).not.toContain(BETA_START_KEY);
    }
  });

  it("tells of a test of the page's words, and the event it sends, only while one runs", () => {
    for (const locale of ["en", "ar"] as const) {
      expect(legalText(notice({}, locale), "events")).not.toContain(EXPOSURE_EVENT);
      const testing = notice({ EXPERIMENTS_FILE: "experiments.example.json" }, locale);
      expect(legalText(testing, "events")).toContain(EXPOSURE_EVENT);
    }
    expect(legalText(notice({ EXPERIMENTS_FILE: "experiments.example.json" }), "events")).toMatch(
      /never who saw which/,
    );
  });

  it("quotes a chat reference the webhook would read back, after the language's own label", () => {
    expect(refInText(EXAMPLE_REF)).toBe(EXAMPLE_REF);
    expect(legalText(notice(), "chat")).toContain(`Ref ${EXAMPLE_REF}`);
    expect(legalText(notice({}, "ar"), "chat")).toContain(`المرجع ${EXAMPLE_REF}`);
  });

  it("writes events to the log only without GA4, and names the proxy's log only behind one", () => {
    expect(legalText(notice(), "logs")).toContain(legal.privacy.logs.events);
    expect(legalText(notice(GA), "logs")).not.toContain(legal.privacy.logs.events);
    expect(legalText(notice(), "logs")).not.toContain(legal.privacy.logs.proxy);
    expect(legalText(notice({ TRUST_PROXY: "1" }), "logs")).toContain(legal.privacy.logs.proxy);
  });

  it("gives the contact address as a mail link, for questions and for deletion", () => {
    const document = notice({ CONTACT_EMAIL: "privacy@darb.example" });
    const links = document.sections.flatMap((section) =>
      section.blocks.flatMap((block) =>
        ("paragraph" in block ? [block.paragraph] : block.list)
          .flat()
          .filter((part) => typeof part === "object" && "href" in part),
      ),
    );
    expect(links).toEqual([
      { href: "mailto:privacy@darb.example", text: "privacy@darb.example", ltr: true },
      { href: "mailto:privacy@darb.example", text: "privacy@darb.example", ltr: true },
    ]);
  });

  it("names the company from its settings, and none while they are unset", () => {
    const unset = legalText(notice(), "who");
    expect(unset).toContain("This website is run by the team behind the Darb app.");
    expect(unset).not.toMatch(/licence|Registered address/i);
    const set = legalText(
      notice({ COMPANY_NAME: "Darb Technologies FZ-LLC", COMPANY_ADDRESS: "Office 1, Dubai" }),
      "who",
    );
    expect(set).toContain("This website is run by Darb Technologies FZ-LLC.");
    expect(set).toContain("Registered address: Office 1, Dubai");
    expect(set).not.toContain("licence");
  });

  it("leaves no slot unfilled, in either language, with every service on or off", () => {
    for (const locale of LOCALES) {
      for (const env of [
        {},
        {
          ...GA,
          ...META,
          ...TIKTOK,
          ...SNAP,
          ...GOOGLE,
          ...REPLY,
          ...STAGE_API,
          TRUST_PROXY: "1",
        },
      ]) {
        expect(recipientsOn(parseConfig(env), copyFor(locale), locale)).toHaveLength(
          Object.keys(env).length === 0 ? 0 : 6,
        );
        const document = notice({ ...env, COMPANY_NAME: "X", COMPANY_LICENCE: "1" }, locale);
        expect(legalText(document)).not.toMatch(/[{}]/);
        expect(document.updated).toMatch(/2026/);
      }
    }
  });
});
