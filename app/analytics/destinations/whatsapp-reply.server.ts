/**
 * The chat's first answer, through the WhatsApp Cloud API: opted into with WHATSAPP_ACCESS_TOKEN
 * and WHATSAPP_PHONE_NUMBER_ID beside the webhook's settings. When a lead's first message
 * arrives, one text in the lead's language with the beta link for its phone (BETA_LINK_IOS,
 * BETA_LINK_ANDROID; both when the tap's phone was neither), or, without the link it needs,
 * when a person answers. It goes through the ledger and the outbox as every call does: retried
 * while WhatsApp fails, held while the token is refused, never sent twice (WhatsApp drops no
 * repeat, so a call without an answer is not sent again), and given up once WhatsApp's 24-hour
 * window for a free-form reply to the driver's message has closed.
 *
 * The driver's number must be in the call and must not be kept in clear: it is sealed
 * (AES-256-GCM under a key derived from the webhook's app secret) in the call the ledger
 * writes, and opened only as the call is sent. The token joins as a header, never the ledger.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { ChatFacts, Destination } from "~/analytics/destinations/destination.server";
import { judgeMeta, type Verdict } from "~/analytics/verdict.server";
import * as arReply from "~/content/ar/whatsapp-reply";
import * as enReply from "~/content/whatsapp-reply";
import type { NewCall } from "~/leads/ledger/ledger.server";
import {
  allOrNone,
  ConfigError,
  type Env,
  endpoint,
  parsed,
  read,
  setting,
  TOKEN,
  text,
  urlOf,
} from "~/platform/setting-readers.server";

export type WhatsappReplySettings = {
  accessToken: string;
  phoneNumberId: string;
  endpoint: string;
  links: { ios: string | null; android: string | null };
  /** The key the driver's number is sealed with, from WHATSAPP_APP_SECRET. */
  sealKey: Buffer;
};

/** The Graph API version is pinned here, as Meta's destination pins it. */
export const DEFAULT_WHATSAPP_API_ENDPOINT = "https://graph.facebook.com/v23.0";
/** WhatsApp takes a free-form message only within 24 hours of the driver's last message. */
export const REPLY_WINDOW_MS = 24 * 3_600_000;

// ── The driver's number, sealed ──────────────────────────────────────────────────────────────

const SEALED = "sealed:";

/** The sealing key: the app secret stretched for this one use (HKDF-SHA256). */
export function sealKeyOf(appSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", appSecret, "darb", "whatsapp reply recipient", 32));
}

/** The number as the ledger keeps it: a fresh IV each time, so equal numbers seal unalike. */
export function sealNumber(number: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([cipher.update(number, "utf8"), cipher.final()]);
  return `${SEALED}${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url")}`;
}

/** The number back, or null: not sealed, damaged, or sealed under another app secret. */
export function openNumber(sealed: string, key: Buffer): string | null {
  if (!sealed.startsWith(SEALED)) return null;
  const bytes = Buffer.from(sealed.slice(SEALED.length), "base64url");
  if (bytes.length <= 28) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/** A WhatsApp number as the webhook's `from` gives it: E.164's digits, no "+". */
const WA_ID = /^[1-9]\d{7,14}$/;

// ── The message ─────────────────────────────────────────────────────────────────────────────

/**
 * The reply's words in the lead's language: its phone's link, both links when the phone was
 * neither, or, without the link it needs, when a person answers (never the other phone's link).
 */
export function replyText(
  language: string | undefined,
  os: "ios" | "android" | undefined,
  links: WhatsappReplySettings["links"],
): string {
  const words = language === "ar" ? arReply.whatsappReply : enReply.whatsappReply;
  const line = (which: "ios" | "android") => {
    const link = links[which];
    return link ? words[which].replace("{link}", link) : null;
  };
  const lines = (os ? [line(os)] : [line("ios"), line("android")]).filter((one) => one !== null);
  if (lines.length === 0) return `${words.thanks}\n\n${words.noLink}`;
  const shown = lines.length > 1 ? [words.either, ...lines] : lines;
  return [words.thanks, shown.join("\n"), words.install].join("\n\n");
}

/** The call for a lead's first message; none for a chat without a lead or a usable number. */
export function replyCall(settings: WhatsappReplySettings, facts: ChatFacts): NewCall[] {
  const { lead, sender, chat } = facts;
  if (!lead || !sender || !WA_ID.test(sender)) return [];
  const body = replyText(lead.language, lead.os, settings.links);
  return [
    {
      destination: "whatsapp",
      url: `${settings.endpoint}/${settings.phoneNumberId}/messages`,
      body: JSON.stringify({
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: sealNumber(sender, settings.sealKey),
        type: "text",
        text: { preview_url: body.includes("https://"), body },
      }),
      events: 1,
      // The window runs from the driver's message: the outbox gives up past it.
      at: chat.at,
      lead: lead.id,
    },
  ];
}

/** The body as it goes: the number opened; null (given up) when it cannot be. */
export function replyStamp(body: string, key: Buffer): string | null {
  let message: Record<string, unknown>;
  try {
    message = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return null;
  }
  const to = typeof message.to === "string" ? openNumber(message.to, key) : null;
  if (!to || !WA_ID.test(to)) return null;
  return JSON.stringify({ ...message, to });
}

/**
 * WhatsApp's answers: Meta's Graph API rules (an expired token is held for a new one), and
 * WhatsApp's own throttles and passing troubles sent again; a number not on WhatsApp (131026)
 * or a closed window (131047) is refused for good.
 */
const RETRIED = new Set([130429, 131000, 131016, 131056, 133004]);
export function judgeWhatsapp(status: number, answer: string): Verdict {
  const verdict = judgeMeta(status, answer);
  if (verdict.kind !== "refused") return verdict;
  const code = Number(verdict.code?.split("/")[0]);
  return RETRIED.has(code) ? { ...verdict, kind: "retry" } : verdict;
}

// ── Settings ────────────────────────────────────────────────────────────────────────────────

const WHATSAPP_ACCESS_TOKEN = setting({
  name: "WHATSAPP_ACCESS_TOKEN",
  description:
    "a system user's token with whatsapp_business_messaging, for the chat's automatic first reply",
  secret: true,
  schema: text([
    (raw) => TOKEN(16, 4096).test(raw),
    "must be 16 to 4096 visible characters without spaces (a system user's token from Business Manager)",
  ]),
});

const WHATSAPP_PHONE_NUMBER_ID = setting({
  name: "WHATSAPP_PHONE_NUMBER_ID",
  description: "the business phone number's id in WhatsApp Manager (not the number itself)",
  schema: text([
    (raw) => /^\d{5,20}$/.test(raw),
    "must be the phone number's id from WhatsApp Manager: 5 to 20 digits (not the number itself)",
  ]),
});

const WHATSAPP_API_ENDPOINT = endpoint(
  {
    name: "WHATSAPP_API_ENDPOINT",
    description: "the Cloud API base, pinning its version; http: only on loopback, for tests",
    default: DEFAULT_WHATSAPP_API_ENDPOINT,
  },
  true,
);

const betaLink = (name: string, phone: string) =>
  setting({
    name,
    description: `the beta's install link for ${phone}, sent in the chat's automatic reply`,
    schema: parsed<string>((raw) => {
      const result = urlOf(raw, true);
      return "error" in result ? result : { value: result.value.href };
    }),
  });
const BETA_LINK_IOS = betaLink("BETA_LINK_IOS", "an iPhone (a TestFlight link)");
const BETA_LINK_ANDROID = betaLink("BETA_LINK_ANDROID", "an Android phone");

function readWhatsappReply(env: Env): WhatsappReplySettings | null {
  const endpoint = WHATSAPP_API_ENDPOINT.read(env);
  const links = { ios: BETA_LINK_IOS.read(env), android: BETA_LINK_ANDROID.read(env) };
  if (!allOrNone(env, ["WHATSAPP_ACCESS_TOKEN", "WHATSAPP_PHONE_NUMBER_ID"])) return null;
  // A reply answers a chat the webhook heard of; its secret seals the driver's number.
  const appSecret = read(env, "WHATSAPP_APP_SECRET");
  if (!appSecret) {
    throw new ConfigError(
      "WHATSAPP_ACCESS_TOKEN",
      "needs the webhook set up: set WHATSAPP_VERIFY_TOKEN and WHATSAPP_APP_SECRET too",
    );
  }
  return {
    accessToken: WHATSAPP_ACCESS_TOKEN.read(env) as string,
    phoneNumberId: WHATSAPP_PHONE_NUMBER_ID.read(env) as string,
    endpoint,
    links,
    sealKey: sealKeyOf(appSecret),
  };
}

const WHATSAPP_REPLY_SETTINGS = [
  WHATSAPP_ACCESS_TOKEN,
  WHATSAPP_PHONE_NUMBER_ID,
  WHATSAPP_API_ENDPOINT,
  BETA_LINK_IOS,
  BETA_LINK_ANDROID,
];

export const whatsappReply: Destination<WhatsappReplySettings> = {
  name: "whatsapp",
  settings: {
    names: WHATSAPP_REPLY_SETTINGS.map(({ name }) => name),
    declared: WHATSAPP_REPLY_SETTINGS,
    read: readWhatsappReply,
  },
  maxAgeMs: REPLY_WINDOW_MS,
  // A second message to the driver is a second message: an unanswered call is not sent again.
  deduplicates: false,
  secrets: (settings) => [settings.accessToken],
  sending: (settings) => ({
    stamp: (call) => replyStamp(call.body, settings.sealKey),
    authorize: async () => ({ Authorization: `Bearer ${settings.accessToken}` }),
    judge: judgeWhatsapp,
  }),
  moments: () => new Set(["chat"]),
  chat: replyCall,
  marksLinkSent: true,
};
