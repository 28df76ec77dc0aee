/**
 * The leads' settings: where the ledger is kept and for how long, what each moment of a lead is
 * worth, the token of the stage API, WhatsApp's webhook, and a log line per lead.
 */
import { resolve } from "node:path";
import type { Moment } from "~/leads/moments";
import type { Stage } from "~/leads/stages.server";
import {
  ConfigError,
  type Env,
  parsed,
  read,
  setting,
  shown,
  TOKEN,
  text,
} from "~/platform/setting-readers.server";
import { logSwitch } from "~/platform/settings.server";

/** What a lead's tap, chat and later stages are worth, in AED: the value each event carries. */
export type LeadValues = Record<Exclude<Moment, "stages"> | Stage, number>;

const VALUED = ["tap", "chat", "qualified", "installed", "lost"] as const;

const amount = (text: string) => {
  const value = Number(text);
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(text) || !Number.isFinite(value)) return null;
  return value;
};

/**
 * What each moment of a lead is worth to the business, for the platforms' value-based bidding,
 * as `installed=150,qualified=40` (any of tap, chat, qualified, installed, lost; unnamed ones are
 * 0), or one number for the tap alone.
 */
export const LEAD_VALUE_AED = setting({
  name: "LEAD_VALUE_AED",
  description: "what each moment of a lead is worth in AED, such as installed=150,qualified=40",
  default: "0",
  schema: parsed<LeadValues>((raw) => {
    const values: LeadValues = { tap: 0, chat: 0, qualified: 0, installed: 0, lost: 0 };
    const tap = amount(raw);
    if (tap !== null) return { value: { ...values, tap } };
    for (const part of raw.split(",")) {
      const [name = "", text = ""] = part.split("=").map((side) => side.trim());
      const value = amount(text);
      if (!(VALUED as readonly string[]).includes(name) || value === null) {
        return {
          error: `must be amounts in AED such as installed=150,qualified=40 (of ${VALUED.join(", ")}), or one amount for the tap, got ${shown(raw)}`,
        };
      }
      values[name as keyof LeadValues] = value;
    }
    return { value: values };
  }),
});

/** The bearer token the stage API asks for; unset, the API does not exist. */
export const LEADS_API_TOKEN = setting({
  name: "LEADS_API_TOKEN",
  description: "the bearer token of POST /api/leads/stage; unset, there is no stage API",
  secret: true,
  schema: text([
    (raw) => TOKEN(32, 256).test(raw),
    "must be 32 to 256 visible characters without spaces (such as the output of `openssl rand -hex 32`)",
  ]),
});

export const DATA_DIR = setting({
  name: "DATA_DIR",
  description: "the lead ledger's directory, one per server",
  default: "./data",
  schema: text([(raw) => !/[\0\n\r]/.test(raw), "must be a directory path on one line"]).transform(
    (raw) => resolve(raw),
  ),
});

export const LEAD_RETENTION_DAYS = setting({
  name: "LEAD_RETENTION_DAYS",
  description: "days a lead and its chats are kept, then erased",
  default: "90",
  schema: text([
    (raw) => /^[0-9]{1,4}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 3650,
    (raw) => `must be whole days from 1 to 3650, got ${shown(raw)}`,
  ]).transform(Number),
});

// Secrets are never shown back, not even in part.
export const WHATSAPP_VERIFY_TOKEN = setting({
  name: "WHATSAPP_VERIFY_TOKEN",
  description: "the token typed into Meta's webhook set-up, for /api/whatsapp/webhook",
  secret: true,
  schema: text([
    (raw) => /^[\x21-\x7e]{8,256}$/.test(raw),
    "must be 8 to 256 visible ASCII characters (the token you typed into Meta's webhook set-up)",
  ]),
});

export const WHATSAPP_APP_SECRET = setting({
  name: "WHATSAPP_APP_SECRET",
  description: "the Meta app's secret, which signs the webhook's calls",
  secret: true,
  schema: text([
    (raw) => /^[0-9a-f]{32}$/i.test(raw),
    "must be the app secret from the Meta app's Basic settings: 32 hexadecimal digits",
  ]),
});

/** The WhatsApp Business webhook, opt-in: both set, or neither. */
export function readWhatsappWebhook(env: Env): { verifyToken: string; appSecret: string } | null {
  const verifyToken = read(env, "WHATSAPP_VERIFY_TOKEN");
  const appSecret = read(env, "WHATSAPP_APP_SECRET");
  if (!verifyToken && !appSecret) return null;
  if (!verifyToken) {
    throw new ConfigError("WHATSAPP_VERIFY_TOKEN", "must be set when WHATSAPP_APP_SECRET is");
  }
  if (!appSecret) {
    throw new ConfigError("WHATSAPP_APP_SECRET", "must be set when WHATSAPP_VERIFY_TOKEN is");
  }
  return {
    verifyToken: WHATSAPP_VERIFY_TOKEN.read(env) as string,
    appSecret: WHATSAPP_APP_SECRET.read(env) as string,
  };
}

export const LOG_LEADS = logSwitch("LOG_LEADS", "1: one JSON line per lead counted on stdout");

/** The leads' settings, in the order docs/settings.md lists them. */
export const LEADS_SETTINGS = [
  LEAD_VALUE_AED,
  LEADS_API_TOKEN,
  DATA_DIR,
  LEAD_RETENTION_DAYS,
  WHATSAPP_VERIFY_TOKEN,
  WHATSAPP_APP_SECRET,
  LOG_LEADS,
];
