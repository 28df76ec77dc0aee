/**
 * The WhatsApp Business Platform's webhook (Cloud API): the chats the lead links open, tied back
 * to their leads by the reference their message quotes (leads/chat-ref.ts). Opted into with
 * WHATSAPP_VERIFY_TOKEN and WHATSAPP_APP_SECRET; set up as docs/analytics.md, The chat, says.
 *
 * Meta signs every delivery (X-Hub-Signature-256: HMAC-SHA256 of the raw body with the app
 * secret) and sends it again until it gets a 200, so the work is idempotent on the message id,
 * and the answer comes once the chat is in the ledger: the calls to GA4 and Meta go out later.
 */

import { createHmac, timingSafeEqual } from "node:crypto";
import { refInText } from "~/leads/chat-ref";
import { type ChatReferral, referralOf } from "~/leads/chat-referral.server";
import { landingUrl, leadValue } from "~/leads/leads.server";
import type { ChatRecord, LeadRecord } from "~/leads/ledger/ledger.server";
import { phoneHashes } from "~/leads/phone-hashes.server";
import { expVariantString } from "~/leads/variant-token";
import { readBounded } from "~/platform/bounded-body.server";
import { logLine } from "~/platform/log-line.server";
import type { RequestContext } from "~/platform/request-context.server";
import { campaignDetails, leadSource } from "~/shared/campaign";
import type { OutboundEvent } from "~/shared/events";

/** Meta's deliveries are a few kB; a batch of them stays far below this. */
export const MAX_WEBHOOK_BYTES = 1024 * 1024;

/** An inbound message, as much of it as ties a chat to a lead. */
export type InboundMessage = {
  messageId: string;
  /** The business account (the entry's id). */
  account?: string;
  at: number;
  /** What the visitor wrote (a text, or a button's or list's title). */
  text: string;
  /**
   * The sender's WhatsApp number (digits, its country code first): hashed at once, and kept in
   * clear nowhere (the automatic reply seals it into its call).
   */
  from?: string;
  ctwaClid?: string;
  /** The Click-to-WhatsApp ad or post it came from, as little as names it. */
  referral?: ChatReferral;
};

/**
 * Meta's header, read strictly: Buffer.from(…, "hex") would quietly drop what is not hex, so a
 * header is taken only in the one form Meta writes.
 */
const SIGNATURE = /^sha256=[0-9a-f]{64}$/;

/** Whether `header` is Meta's signature of `body` with `secret`, compared in constant time. */
export function validSignature(body: Buffer, header: string | null, secret: string): boolean {
  if (header === null || !SIGNATURE.test(header)) return false;
  const given = Buffer.from(header.slice("sha256=".length), "hex");
  const expected = createHmac("sha256", secret).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const record = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.length <= 4096 ? value : undefined;

/**
 * The inbound messages of a delivery: every entry, change and message, in order. Status
 * callbacks (sent, delivered, read) and other fields carry no message and give none.
 */
export function inboundMessages(payload: unknown): InboundMessage[] {
  const messages: InboundMessage[] = [];
  const root = record(payload);
  if (root?.object !== "whatsapp_business_account") return messages;
  for (const entry of list(root.entry).map(record)) {
    const account = text(entry?.id);
    for (const change of list(entry?.changes).map(record)) {
      if (change?.field !== "messages") continue;
      const value = record(change.value);
      for (const message of list(value?.messages).map(record)) {
        const messageId = text(message?.id);
        if (!message || !messageId) continue;
        const seconds = Number(text(message.timestamp));
        const written =
          text(record(message.text)?.body) ??
          text(record(message.button)?.text) ??
          text(record(record(message.interactive)?.button_reply)?.title) ??
          text(record(record(message.interactive)?.list_reply)?.title) ??
          "";
        const ctwaClid = text(record(message.referral)?.ctwa_clid);
        // The ad's id, type and headline; never its text, media or URL.
        const referral = referralOf(message.referral);
        const from = text(message.from);
        messages.push({
          messageId,
          ...(from ? { from } : {}),
          ...(account ? { account } : {}),
          at: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : Date.now(),
          text: written,
          ...(ctwaClid ? { ctwaClid } : {}),
          ...(referral ? { referral } : {}),
        });
      }
    }
  }
  return messages;
}

/** GA4's working_lead (a lead talking to the business), in its lead's words and campaign. */
export function workingLead(lead: LeadRecord, value = 0): OutboundEvent {
  return {
    name: "working_lead",
    params: {
      ...leadValue(value),
      lead_status: "chat_started",
      lead_source: leadSource(lead.campaign),
      cta: lead.cta,
      ...(lead.language ? { language: lead.language } : {}),
      ...(lead.plan ? { plan: lead.plan } : {}),
      ...campaignDetails(lead.campaign),
      ...(lead.experiment
        ? {
            exp_variant_string: expVariantString({
              experiment: lead.experiment.id,
              variant: lead.experiment.variant,
            }),
          }
        : {}),
    },
  };
}

export type ChatOutcome = { seen: number; matched: number; unmatched: number; repeated: number };

/**
 * Records the messages a delivery carries: each message once (by its id, across replicas when
 * they share Redis), tied to the lead its reference names, on this replica or, through Redis,
 * another; a lead's first chat is told to GA4 and Meta, later ones only kept.
 */
export async function recordChats(
  context: RequestContext,
  messages: InboundMessage[],
): Promise<ChatOutcome> {
  const { ledger, analytics, shared } = context.services;
  const outcome: ChatOutcome = { seen: 0, matched: 0, unmatched: 0, repeated: 0 };
  for (const message of messages) {
    // Redis says whether any replica has it; without an answer, this replica's ledger does.
    const claimed = shared ? await shared.claimChat(message.messageId) : null;
    if (claimed === false || ledger.chatSeen(message.messageId)) {
      outcome.repeated += 1;
      continue;
    }
    outcome.seen += 1;
    const ref = refInText(message.text);
    let lead = ref ? ledger.leadByRef(ref) : undefined;
    if (ref && !lead && shared) {
      lead = await shared.leadByRef(ref);
      if (lead) ledger.adoptLead(lead);
    }
    const chat: ChatRecord = {
      messageId: message.messageId,
      at: message.at,
      lead: lead?.id ?? null,
      ...(message.ctwaClid ? { ctwaClid: message.ctwaClid } : {}),
      ...(message.account ? { account: message.account } : {}),
      ...(message.referral ? { referral: message.referral } : {}),
    };
    if (lead) outcome.matched += 1;
    else outcome.unmatched += 1;
    // A lead's first chat is told (later ones are only kept); so is an ad's chat without a lead.
    const first = lead?.status === "new";
    const told = first || (!lead && chat.ctwaClid !== undefined);
    const value = context.config.leadValues.chat;
    const phone = message.from ? phoneHashes(message.from) : null;
    analytics.recordChat(
      chat,
      told
        ? {
            chat,
            ...(first && lead ? { lead } : {}),
            ...(phone ? { phone } : {}),
            // For the automatic reply alone, which seals it; the ledger keeps only the hashes.
            ...(first && lead && phone && message.from ? { sender: message.from } : {}),
            value,
            pageUrl: (campaign) => landingUrl(context.config.siteUrl, campaign),
          }
        : null,
      first && lead ? [workingLead(lead, value)] : [],
    );
  }
  return outcome;
}

const plain = (status: number, body: string) =>
  new Response(body, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

/** Meta's subscription handshake: the challenge back, when the token is ours. */
export function verifySubscription(url: URL, verifyToken: string): Response {
  const mode = url.searchParams.get("hub.mode");
  const token = Buffer.from(url.searchParams.get("hub.verify_token") ?? "");
  const challenge = url.searchParams.get("hub.challenge") ?? "";
  const ours = Buffer.from(verifyToken);
  const matches = token.length === ours.length && timingSafeEqual(token, ours);
  if (mode !== "subscribe" || !matches) return plain(403, "verification failed");
  // Meta's challenge is a number; nothing else is echoed.
  if (!/^[0-9A-Za-z_-]{1,128}$/.test(challenge)) return plain(400, "bad hub.challenge");
  return plain(200, challenge);
}

/** A POSTed delivery: read up to its limit, checked, recorded, answered. */
export async function receiveDelivery(
  context: RequestContext,
  request: Request,
  appSecret: string,
): Promise<Response> {
  const read = await readBounded(request, MAX_WEBHOOK_BYTES);
  if (!read.ok) {
    context.services.log(logLine("whatsapp_webhook_refused", { reason: read.reason }));
    return read.reason === "too_large"
      ? plain(413, "delivery too large")
      : plain(400, "delivery cut short");
  }
  const body = read.bytes;
  // Checked over exactly the bytes read, before any of them is parsed.
  if (!validSignature(body, request.headers.get("x-hub-signature-256"), appSecret)) {
    const reason = request.headers.has("x-hub-signature-256") ? "bad" : "missing";
    context.services.log(logLine("whatsapp_webhook_refused", { reason, bytes: body.length }));
    return plain(401, "signature required");
  }
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString("utf8"));
  } catch {
    // Signed by Meta yet not JSON: answered 200, so Meta does not send it again for ever.
    context.services.log(logLine("whatsapp_webhook_unreadable", { bytes: body.length }));
    return plain(200, "ok");
  }
  const outcome = await recordChats(context, inboundMessages(payload));
  if (outcome.seen + outcome.repeated > 0) {
    context.services.log(logLine("whatsapp_chats", { ...outcome }));
  }
  return plain(200, "ok");
}
