// The chat's automatic first reply: its words for each phone and language, the number sealed in
// the ledger's call and opened only as it is sent, WhatsApp's answers, and its settings.
import { describe, expect, it } from "vitest";
import { type ChatFacts, configure } from "~/analytics/destinations/destination.server";
import {
  DEFAULT_WHATSAPP_API_ENDPOINT,
  judgeWhatsapp,
  openNumber,
  REPLY_WINDOW_MS,
  replyCall,
  replyStamp,
  replyText,
  sealKeyOf,
  sealNumber,
  type WhatsappReplySettings,
  whatsappReply,
} from "~/analytics/destinations/whatsapp-reply.server";
import type { LeadRecord } from "~/leads/ledger/ledger.server";
import { ConfigError, type Env } from "~/platform/setting-readers.server";

const APP_SECRET = "0123456789abcdef0123456789abcdef";
const TOKEN = "EAAG_system_user_token_TOPSECRET";
const NUMBER = "971501234567";
const IOS = "https://testflight.apple.com/join/AbCdEf12";
const ANDROID = "https://play.google.com/apps/testing/ae.darb.app";
const ENV: Env = {
  WHATSAPP_VERIFY_TOKEN: "verify-token-1",
  WHATSAPP_APP_SECRET: APP_SECRET,
  WHATSAPP_ACCESS_TOKEN: TOKEN,
  WHATSAPP_PHONE_NUMBER_ID: "106540352242922",
  BETA_LINK_IOS: IOS,
  BETA_LINK_ANDROID: ANDROID,
};
const AT = Date.UTC(2026, 10, 26, 20, 30, 15);

const settingsOf = (env: Env) => whatsappReply.settings.read(env) as WhatsappReplySettings;
const SETTINGS = settingsOf(ENV);

function lead(overrides: Partial<LeadRecord> = {}): LeadRecord {
  return {
    id: "lead-1",
    at: AT - 60_000,
    cta: "whatsapp",
    language: "en",
    campaign: {},
    clientId: "1.2",
    sessionId: "3",
    ref: "DRB-7K2QX",
    status: "new",
    ...overrides,
  };
}

function facts(overrides: Partial<ChatFacts> = {}): ChatFacts {
  return {
    chat: { messageId: "wamid.1", at: AT, lead: "lead-1" },
    lead: lead(),
    sender: NUMBER,
    value: 0,
    pageUrl: () => "https://darb.example/",
    ...overrides,
  };
}

describe("the reply's words", () => {
  const links = { ios: IOS, android: ANDROID };

  it("give an iPhone's lead the iPhone link and an Android's the Android one, never the other", () => {
    const ios = replyText("en", "ios", links);
    expect(ios).toContain(`Your iPhone link: ${IOS}`);
    expect(ios).not.toContain(ANDROID);
    const android = replyText("en", "android", links);
    expect(android).toContain(`Your Android link: ${ANDROID}`);
    expect(android).not.toContain(IOS);
  });

  it("give both links when the tap's phone was neither", () => {
    const text = replyText("en", undefined, links);
    expect(text).toContain("Open the one for your phone:");
    expect(text).toContain(IOS);
    expect(text).toContain(ANDROID);
  });

  it("are Arabic for an Arabic lead", () => {
    const text = replyText("ar", "android", links);
    expect(text).toContain("شكرًا لمراسلتك درب");
    expect(text).toContain(`رابط أندرويد الخاص بك: ${ANDROID}`);
    expect(text).not.toMatch(/Thanks|Your/);
  });

  it("say when a person answers, and promise no link, while the phone's link is not set", () => {
    const text = replyText("en", "ios", { ios: null, android: null });
    expect(text).toContain("between 8 am and 10 pm Dubai time");
    expect(text).not.toMatch(/https:|link:/);
    // An iPhone's lead with only the Android link set is not sent a link it cannot install.
    const other = replyText("en", "ios", { ios: null, android: ANDROID });
    expect(other).not.toContain(ANDROID);
    expect(other).toContain("between 8 am and 10 pm Dubai time");
    // A phone that was neither gets whichever link there is.
    expect(replyText("en", undefined, { ios: null, android: ANDROID })).toContain(ANDROID);
  });
});

describe("the reply's call", () => {
  it("goes to the phone number's /messages as one text, dated by the driver's message, for its lead", () => {
    const [call, ...more] = replyCall(SETTINGS, facts({ lead: lead({ os: "ios" }) }));
    expect(more).toEqual([]);
    expect(call).toMatchObject({
      destination: "whatsapp",
      url: `${DEFAULT_WHATSAPP_API_ENDPOINT}/106540352242922/messages`,
      events: 1,
      at: AT,
      lead: "lead-1",
    });
    const body = JSON.parse(call?.body ?? "");
    expect(body).toMatchObject({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      type: "text",
      text: { preview_url: true, body: expect.stringContaining(IOS) },
    });
  });

  it("keeps the number sealed in what the ledger writes, and opens it only as it is sent", () => {
    const [call] = replyCall(SETTINGS, facts());
    expect(call?.body).not.toContain(NUMBER);
    expect(call?.body).not.toContain(TOKEN);
    expect(JSON.parse(call?.body ?? "").to).toMatch(/^sealed:[A-Za-z0-9_-]+$/);
    const sent = JSON.parse(replyStamp(call?.body ?? "", SETTINGS.sealKey) ?? "");
    expect(sent.to).toBe(NUMBER);
    // Two seals of one number differ, so the ledger shows no pattern to match.
    const [again] = replyCall(SETTINGS, facts());
    expect(JSON.parse(again?.body ?? "").to).not.toBe(JSON.parse(call?.body ?? "").to);
  });

  it("cannot be opened under another app secret, nor when damaged: then it is given up (null)", () => {
    const [call] = replyCall(SETTINGS, facts());
    const body = call?.body ?? "";
    expect(replyStamp(body, sealKeyOf("fedcba9876543210fedcba9876543210"))).toBeNull();
    const sealed = JSON.parse(body).to as string;
    const damaged = `${sealed.slice(0, -2)}${sealed.endsWith("A") ? "B" : "A"}A`;
    expect(openNumber(damaged, SETTINGS.sealKey)).toBeNull();
    expect(replyStamp(JSON.stringify({ to: NUMBER }), SETTINGS.sealKey)).toBeNull();
    expect(replyStamp("not json", SETTINGS.sealKey)).toBeNull();
    expect(openNumber(sealNumber(NUMBER, SETTINGS.sealKey), SETTINGS.sealKey)).toBe(NUMBER);
  });

  it("is none for a chat without a known lead, or without a number WhatsApp could take", () => {
    expect(replyCall(SETTINGS, facts({ lead: undefined }))).toEqual([]);
    expect(replyCall(SETTINGS, facts({ sender: undefined }))).toEqual([]);
    expect(replyCall(SETTINGS, facts({ sender: "0501234567" }))).toEqual([]);
    expect(replyCall(SETTINGS, facts({ sender: "9715012345678901" }))).toEqual([]);
  });
});

describe("as a destination", () => {
  const on = configure(whatsappReply, SETTINGS);

  it("hears only of chats, is given up past WhatsApp's 24-hour window, and never sends twice", () => {
    expect([...on.moments]).toEqual(["chat"]);
    expect(on.tap).toBeUndefined();
    expect(on.stage).toBeUndefined();
    expect(on.maxAgeMs).toBe(REPLY_WINDOW_MS);
    expect(REPLY_WINDOW_MS).toBe(24 * 3_600_000);
    expect(on.deduplicates).toBe(false);
    expect(on.marksLinkSent).toBe(true);
    expect(on.secrets).toEqual([TOKEN]);
  });

  it("sends the token as a Bearer header, never in the body", async () => {
    const sending = on.sending({});
    expect(await sending.authorize?.()).toEqual({ Authorization: `Bearer ${TOKEN}` });
    const [call] = on.chat?.(facts()) ?? [];
    expect(sending.stamp?.(call as never, AT)).not.toContain(TOKEN);
  });

  it("reads WhatsApp's answers: held for a new token, sent again while throttled, refused for a number not on WhatsApp or a closed window", () => {
    const error = (code: number) => JSON.stringify({ error: { code, message: `code ${code}` } });
    expect(judgeWhatsapp(200, '{"messages":[{"id":"wamid.X"}]}').kind).toBe("delivered");
    expect(judgeWhatsapp(401, error(190)).kind).toBe("credentials");
    expect(judgeWhatsapp(400, error(130429)).kind).toBe("retry");
    expect(judgeWhatsapp(400, error(131056)).kind).toBe("retry");
    expect(judgeWhatsapp(503, "").kind).toBe("retry");
    expect(judgeWhatsapp(400, error(131026))).toMatchObject({ kind: "refused", code: "131026" });
    expect(judgeWhatsapp(400, error(131047)).kind).toBe("refused");
  });
});

describe("its settings", () => {
  const { WHATSAPP_ACCESS_TOKEN, WHATSAPP_PHONE_NUMBER_ID, ...webhook } = ENV;
  const failure = (env: Env) => {
    try {
      whatsappReply.settings.read(env);
    } catch (error) {
      if (error instanceof ConfigError) return { variable: error.variable, message: error.message };
      throw error;
    }
    return null;
  };

  it("are off with neither the token nor the number's id, whatever else is set", () => {
    expect(whatsappReply.settings.read(webhook)).toBeNull();
    expect(whatsappReply.settings.read({})).toBeNull();
  });

  it("want both, and the webhook beside them", () => {
    expect(failure({ ...webhook, WHATSAPP_ACCESS_TOKEN })).toMatchObject({
      variable: "WHATSAPP_PHONE_NUMBER_ID",
    });
    const { WHATSAPP_APP_SECRET: _, ...noWebhook } = ENV;
    const refused = failure(noWebhook);
    expect(refused?.variable).toBe("WHATSAPP_ACCESS_TOKEN");
    expect(refused?.message).toMatch(/WHATSAPP_APP_SECRET/);
    expect(refused?.message).not.toContain(TOKEN);
  });

  it("refuse a plain-http API elsewhere and a beta link that is not https, never showing the token", () => {
    expect(failure({ ...ENV, WHATSAPP_API_ENDPOINT: "http://graph.example/v23.0" })).toMatchObject({
      variable: "WHATSAPP_API_ENDPOINT",
    });
    expect(settingsOf({ ...ENV, WHATSAPP_API_ENDPOINT: "http://127.0.0.1:9/v23" }).endpoint).toBe(
      "http://127.0.0.1:9/v23",
    );
    expect(failure({ ...ENV, BETA_LINK_IOS: "http://testflight.apple.com/join/x" })).toMatchObject({
      variable: "BETA_LINK_IOS",
    });
    expect(failure({ ...ENV, WHATSAPP_PHONE_NUMBER_ID: "+971 50 123 4567" })).toMatchObject({
      variable: "WHATSAPP_PHONE_NUMBER_ID",
    });
    expect(JSON.stringify(failure({ ...ENV, WHATSAPP_ACCESS_TOKEN: `${TOKEN} x` }))).not.toContain(
      "TOPSECRET",
    );
  });

  it("need no link: the reply then says when a person answers", () => {
    const { BETA_LINK_IOS: _, BETA_LINK_ANDROID: __, ...linkless } = ENV;
    expect(settingsOf(linkless).links).toEqual({ ios: null, android: null });
  });
});
