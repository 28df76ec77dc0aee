/**
 * What a destination is (docs/decisions/025-destination-registry.md): one module per place the
 * site's leads go (GA4, Meta, TikTok, Snap, Google), declaring its settings, how long it takes an
 * event, whether it drops a repeat itself, how its calls are sent and judged, and which of a
 * lead's moments (the tap, the chat, a later stage) it turns into calls. The outbox, the ledger,
 * /metrics, the stats line and the privacy notice read the registry (registry.server.ts); adding
 * a network is one module and its line in the privacy notice, in each language.
 */
import { createHash } from "node:crypto";
import type { OutboxOptions, Post } from "~/analytics/outbox.server";
import type { ChatRecord, LeadRecord, NewCall } from "~/leads/ledger/ledger.server";
import { MOMENTS, type Moment } from "~/leads/moments";
import type { PhoneHashes } from "~/leads/phone-hashes.server";
import type { Stage } from "~/leads/stages.server";
import type { TapFacts } from "~/leads/tap-facts";
import { type AnySetting, type Env, parsed, setting } from "~/platform/setting-readers.server";
import { type Campaign, CLICK_IDS } from "~/shared/campaign";
import type { OutboundEvent } from "~/shared/events";

/** A lead's stages and its phone's hashes (leads/) are part of what each destination is told. */
export type { PhoneHashes, Stage };
export { MOMENTS, type Moment, type TapFacts };

export type ClickIdName = (typeof CLICK_IDS)[number];

/** A chat the webhook tied to its lead, or one from a Click-to-WhatsApp ad without a lead. */
export type ChatFacts = {
  chat: ChatRecord;
  lead?: LeadRecord;
  phone?: PhoneHashes;
  /**
   * The driver's WhatsApp number as the webhook gave it, held in memory only: a reply seals it
   * into its call (whatsapp-reply.server.ts); no other destination reads it.
   */
  sender?: string;
  value: number;
  /** The site's landing page with a campaign (its own click id): where web events say they were. */
  pageUrl: (campaign: Campaign) => string;
};

/** A later stage of a lead, told by the team (api/leads/stage or npm run leads -- stage). */
export type StageFacts = {
  lead: LeadRecord;
  stage: Stage;
  at: number;
  /** In AED: the stage's own (LEAD_VALUE_AED), or the one the team gave. */
  value: number;
  phone?: PhoneHashes;
  pageUrl: (campaign: Campaign) => string;
};

/** How a destination's calls are sent and read: credentials join them only as they go. */
export type Sending = Pick<OutboxOptions, "stamp" | "address" | "authorize" | "judge">;

/** What the sink hands a destination's sending: how a call is posted (a stand-in, in tests). */
export type SendingContext = { post?: Post };

/**
 * What the privacy notice says of a destination: a heading, what it is sent (paragraphs, and
 * lists as arrays), what it hears of a chat while the webhook is set up, and of the stages.
 */
export type PrivacyWords = {
  heading: string;
  body: readonly (string | readonly string[])[];
  chat: string;
  /** What it hears of the later stages, while the team can tell the site of them. */
  stages?: string;
};

export type Destination<S> = {
  /** Its name in the ledger, /metrics and the stats line (`meta`, `tiktok`, …). */
  name: string;
  settings: {
    /** Every variable it reads, for docs/settings.md and compose. */
    names: readonly string[];
    /** Each of them declared, with its schema and words (a stand-in of the tests has none). */
    declared?: readonly AnySetting[];
    /** Its settings, or null while it is off; a bad or partial set throws a ConfigError. */
    read: (env: Env) => S | null;
  };
  /** How far back it still takes an event (ms): older ones are given up. */
  maxAgeMs: number;
  /** Whether it drops a repeated event itself, so an uncertain call may be sent again. */
  deduplicates: boolean;
  /** Its credentials, which no log line may show. */
  secrets: (settings: S) => string[];
  sending?: (settings: S, context: SendingContext) => Sending;
  /** Which moments it is told of (its *_SEND setting); GA4 is told of all. */
  moments: (settings: S) => ReadonlySet<Moment>;
  /** What start-up warns of in production while these settings hold (a test code, say). */
  warnings?: (settings: S) => string[];
  tap?: (settings: S, facts: TapFacts) => NewCall[];
  chat?: (settings: S, facts: ChatFacts) => NewCall[];
  stage?: (settings: S, facts: StageFacts) => NewCall[];
  /**
   * The site's own events for a client (GA4): a browser's batch, or what a lead, its chat or a
   * stage records. Without a destination that takes them, they are written to the log.
   */
  events?: (settings: S, batch: EventBatch) => NewCall[];
  /** For a network whose words are not in content/legal.ts (one only the tests have). */
  privacy?: { en: PrivacyWords; ar: PrivacyWords };
  /** Its delivered call is the lead's "link sent" stage (the chat's automatic reply). */
  marksLinkSent?: boolean;
};

export type EventBatch = {
  clientId: string;
  events: OutboundEvent[];
  at: number;
  /** The lead the events report, if any. */
  lead?: string;
  /** A browser's own batch (page views, clicks): given up first if ever, while it is down. */
  browser?: boolean;
  /**
   * The visitor whose request recorded the events (a browser's batch, a lead on /thank-you, an
   * experiment's view): their address and user agent, for GA4's location and device. None for a
   * chat or a stage, which WhatsApp's webhook and the team's API send, not the visitor.
   */
  from?: { address: string; userAgent?: string };
};

/** A destination with its settings read: what the rest of the site works with. */
export type Configured = {
  name: string;
  maxAgeMs: number;
  deduplicates: boolean;
  secrets: string[];
  sending: (context: SendingContext) => Sending;
  moments: ReadonlySet<Moment>;
  warnings: string[];
  tap?: (facts: TapFacts) => NewCall[];
  chat?: (facts: ChatFacts) => NewCall[];
  stage?: (facts: StageFacts) => NewCall[];
  events?: (batch: EventBatch) => NewCall[];
  privacy?: { en: PrivacyWords; ar: PrivacyWords };
  marksLinkSent: boolean;
};

export function configure<S>(destination: Destination<S>, settings: S): Configured {
  const { tap, chat, stage, events } = destination;
  const moments = destination.moments(settings);
  return {
    name: destination.name,
    maxAgeMs: destination.maxAgeMs,
    deduplicates: destination.deduplicates,
    secrets: destination.secrets(settings),
    sending: (context) => destination.sending?.(settings, context) ?? {},
    moments,
    warnings: destination.warnings?.(settings) ?? [],
    ...(tap && moments.has("tap") ? { tap: (facts: TapFacts) => tap(settings, facts) } : {}),
    ...(chat && moments.has("chat") ? { chat: (facts: ChatFacts) => chat(settings, facts) } : {}),
    ...(stage && moments.has("stages")
      ? { stage: (facts: StageFacts) => stage(settings, facts) }
      : {}),
    ...(events ? { events: (batch: EventBatch) => events(settings, batch) } : {}),
    ...(destination.privacy ? { privacy: destination.privacy } : {}),
    marksLinkSent: destination.marksLinkSent === true,
  };
}

/** A campaign's words and the network's own click ids, never another network's. */
export function ownCampaign(campaign: Campaign, own: readonly ClickIdName[]): Campaign {
  const kept: Campaign = { ...campaign };
  for (const name of CLICK_IDS) if (!own.includes(name)) delete kept[name];
  return kept;
}

// Real user agents are a few hundred characters; a longer one is not a phone's.
export const MAX_USER_AGENT = 1024;

/** The user agent when it is a plausible one, else none. */
export const userAgentOf = (lead: { userAgent: string }) =>
  lead.userAgent && lead.userAgent.length <= MAX_USER_AGENT ? lead.userAgent : undefined;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** Meta wants an external_id hashed (SHA-256, hex): the visit's daily client id, hashed. */
export const externalId = (clientId: string) => sha256(clientId);

/** A stage's own event id, from its lead's: a retry of the same stage is the same event. */
export const momentId = (leadId: string, moment: "chat" | Stage) => `${leadId}.${moment}`;

/**
 * A destination's *_SEND setting: which moments it is told of, a comma list of tap, chat and
 * stages; unset, all three (the tap as before, and the chat and the stages a campaign is
 * better optimised on: docs/analytics.md).
 */
export function momentsSetting(name: string, network: string) {
  return setting({
    name,
    description: `which of a lead's moments ${network} hears of: tap, chat, stages`,
    default: MOMENTS.join(","),
    schema: parsed<ReadonlySet<Moment>>((raw) => {
      const asked = raw.split(",").map((part) => part.trim().toLowerCase());
      if (asked.every((part) => (MOMENTS as readonly string[]).includes(part))) {
        return { value: new Set(asked as Moment[]) as ReadonlySet<Moment> };
      }
      return { error: 'must list what is sent, from tap, chat and stages, such as "chat,stages"' };
    }),
  });
}

export const readMoments = (env: Env, name: string): ReadonlySet<Moment> =>
  momentsSetting(name, name).read(env);
