/**
 * Google Ads through the Data Manager API (`events:ingest`), opted into with GOOGLE_ADS_* : a
 * lead whose visit carried a Google click id (gclid, gbraid or wbraid) is a conversion on the
 * action set for each moment: the tap (GOOGLE_ADS_CONVERSION_ACTION), its chat, a qualified and
 * an installed lead (GOOGLE_ADS_CHAT_/QUALIFIED_/INSTALLED_CONVERSION_ACTION), each with the
 * lead's id as its transaction id, its time, its value in AED and, once the chat gives it, the
 * hashed phone. Google can only credit a click, so a lead without one is never sent. The access
 * token (from the refresh token, with the datamanager scope) joins each call as it is sent.
 * Why not the Google Ads API's uploadClickConversions: docs/decisions/026.
 */
import {
  type ClickIdName,
  type Destination,
  momentsSetting,
  type PhoneHashes,
  type Sending,
  type SendingContext,
  userAgentOf,
} from "~/analytics/destinations/destination.server";
import { createTokenCache, type TokenCache } from "~/analytics/google-oauth.server";
import { judgeStatus, platformError, type Verdict } from "~/analytics/verdict.server";
import type { LeadRecord, NewCall } from "~/leads/ledger/ledger.server";
import {
  allOrNone,
  ConfigError,
  type Env,
  endpoint,
  parsed,
  read,
  setting,
  shown,
  TOKEN,
  text,
} from "~/platform/setting-readers.server";
import type { Campaign } from "~/shared/campaign";

type Moment = "tap" | "chat" | "qualified" | "installed";

export type GoogleSettings = {
  /** The Google Ads account that owns the conversion actions, ten digits. */
  customerId: string;
  /** A manager account the credentials act through, if they do. */
  loginCustomerId: string | null;
  /** The conversion action (its numeric id) each moment is counted on; a moment without one is not sent. */
  actions: Partial<Record<Moment, string>>;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  /** The Data Manager API's base, its version included. */
  endpoint: string;
  /** Where a refresh token is exchanged for an access token. */
  oauthEndpoint: string;
  moments: ReadonlySet<"tap" | "chat" | "stages">;
  /** Settings of the Google Ads API's upload that the Data Manager API has no use for. */
  unused: string[];
};

export const DEFAULT_DATA_MANAGER_ENDPOINT = "https://datamanager.googleapis.com/v1";
export const DEFAULT_GOOGLE_OAUTH_ENDPOINT = "https://oauth2.googleapis.com/token";
/** A click conversion is taken up to 90 days after its click (the longest window an action has). */
export const GOOGLE_MAX_AGE_MS = 90 * 86_400_000;

/** Exactly one click id goes with a conversion: gclid first, then the iOS ones. */
const GOOGLE_CLICK_IDS = ["gclid", "gbraid", "wbraid"] as const satisfies readonly ClickIdName[];

const DUBAI_OFFSET_MS = 4 * 3600_000;

/** An RFC 3339 time written in Dubai's time (UTC+4), as the API takes an event's timestamp. */
export function dubaiTimestamp(at: number): string {
  return `${new Date(at + DUBAI_OFFSET_MS).toISOString().slice(0, 19)}+04:00`;
}

/** The lead's Google click id, or none (then nothing is sent: Google credits only a click). */
function clickOf(campaign: Campaign): Partial<Record<ClickIdName, string>> | null {
  const name = GOOGLE_CLICK_IDS.find((id) => campaign[id] !== undefined);
  return name ? { [name]: campaign[name] } : null;
}

type Conversion = {
  leadId: string;
  at: number;
  value: number;
  click: Partial<Record<ClickIdName, string>>;
  /** The visitor's device at the tap (the landing page's), which Google matches a click on too. */
  device?: { userAgent?: string; ipAddress: string };
  phone?: PhoneHashes;
};

/** One conversion, as `events:ingest` takes it: the action, its account, the event. */
export function ingestCall(
  settings: GoogleSettings,
  action: string,
  conversion: Conversion,
): NewCall {
  const account = (id: string) => ({ accountType: "GOOGLE_ADS", accountId: id });
  const body = {
    destinations: [
      {
        operatingAccount: account(settings.customerId),
        ...(settings.loginCustomerId ? { loginAccount: account(settings.loginCustomerId) } : {}),
        productDestinationId: action,
      },
    ],
    // Hashed identifiers are hexadecimal, as phoneHashes writes them.
    ...(conversion.phone ? { encoding: "HEX" } : {}),
    events: [
      {
        transactionId: conversion.leadId,
        eventTimestamp: dubaiTimestamp(conversion.at),
        eventSource: "WEB",
        adIdentifiers: {
          ...conversion.click,
          ...(conversion.device ? { landingPageDeviceInfo: conversion.device } : {}),
        },
        ...(conversion.phone
          ? { userData: { userIdentifiers: [{ phoneNumber: conversion.phone.e164 }] } }
          : {}),
        // Without a value of ours, the action's own default counts.
        ...(conversion.value > 0 ? { conversionValue: conversion.value, currency: "AED" } : {}),
      },
    ],
  };
  return {
    destination: "google_ads",
    url: `${settings.endpoint}/events:ingest`,
    body: JSON.stringify(body),
    events: 1,
    at: conversion.at,
    lead: conversion.leadId,
  };
}

/** A later moment of a lead with a Google click, on that moment's action, if one is set. */
function later(
  settings: GoogleSettings,
  moment: "chat" | "qualified" | "installed",
  lead: LeadRecord,
  at: number,
  value: number,
  phone: PhoneHashes | undefined,
): NewCall[] {
  const action = settings.actions[moment];
  const click = clickOf(lead.campaign);
  if (!action || !click) return [];
  // Each action counts its own conversions: the lead's id is the transaction on each.
  return [ingestCall(settings, action, { leadId: lead.id, at, value, click, phone })];
}

/**
 * What the Data Manager API's answer means: a 2xx took the request (Google reports per-event
 * outcomes later, in its diagnostics); a 401 is an access token it no longer takes, so a new one
 * is fetched and the call sent again; the rest as any destination's (a 403, the credentials).
 */
export function judgeGoogle(tokens: TokenCache) {
  return (status: number, answer: string): Verdict => {
    if (status === 401) {
      tokens.invalidate();
      return { kind: "retry", ...platformError(answer) };
    }
    return judgeStatus(status, answer);
  };
}

function sending(settings: GoogleSettings, context: SendingContext): Sending {
  const tokens = createTokenCache(settings, context.post ? { post: context.post } : {});
  return {
    authorize: async () => ({ Authorization: `Bearer ${await tokens.get()}` }),
    judge: judgeGoogle(tokens),
  };
}

const ACTION_SETTINGS: Record<Moment, string> = {
  tap: "GOOGLE_ADS_CONVERSION_ACTION",
  chat: "GOOGLE_ADS_CHAT_CONVERSION_ACTION",
  qualified: "GOOGLE_ADS_QUALIFIED_CONVERSION_ACTION",
  installed: "GOOGLE_ADS_INSTALLED_CONVERSION_ACTION",
};
const REQUIRED = [
  "GOOGLE_ADS_CUSTOMER_ID",
  "GOOGLE_ADS_CLIENT_ID",
  "GOOGLE_ADS_CLIENT_SECRET",
  "GOOGLE_ADS_REFRESH_TOKEN",
] as const;
/** The Google Ads API upload's own settings, which the Data Manager API does not take. */
const RETIRED = ["GOOGLE_ADS_DEVELOPER_TOKEN", "GOOGLE_ADS_ENDPOINT"] as const;

/** A customer id as Google Ads shows it (123-456-7890) or as its APIs want it (1234567890). */
const customerIdSetting = (name: string, description: string) =>
  setting({
    name,
    description,
    schema: parsed<string>((raw) => {
      const id = raw.replace(/-/g, "");
      if (/^\d{10}$/.test(id) && /^[\d-]+$/.test(raw)) return { value: id };
      return {
        error: `must be a Google Ads customer id, such as 123-456-7890, got ${shown(raw)}`,
      };
    }),
  });

const GOOGLE_ADS_CUSTOMER_ID = customerIdSetting(
  "GOOGLE_ADS_CUSTOMER_ID",
  "the Google Ads account that owns the conversion actions, with the OAuth client",
);
const GOOGLE_ADS_LOGIN_CUSTOMER_ID = customerIdSetting(
  "GOOGLE_ADS_LOGIN_CUSTOMER_ID",
  "the manager account the credentials act through, if they do",
);

/**
 * A conversion action's id, or its id out of a resource name (customers/<id>/conversionActions/
 * <id>), which must be the customer's own: the Data Manager API counts a conversion on the
 * account that owns its action, never a manager's action for a client (decision 026).
 */
const actionSetting = (moment: Moment, name: string) =>
  setting({
    name,
    description: `the conversion action (its id) of ${moment === "tap" ? "the tap" : moment === "chat" ? "the chat" : `a lead ${moment}`}`,
    schema: parsed<{ id: string; customer?: string }>((raw) => {
      if (/^\d{1,20}$/.test(raw)) return { value: { id: raw } };
      const named = /^customers\/(\d{10})\/conversionActions\/(\d{1,20})$/.exec(raw);
      if (!named) {
        return {
          error: `must be a conversion action's id (or customers/<id>/conversionActions/<id>), got ${shown(raw)}`,
        };
      }
      return { value: { id: named[2] as string, customer: named[1] as string } };
    }),
  });

const ACTIONS = (Object.entries(ACTION_SETTINGS) as [Moment, string][]).map(
  ([moment, name]) => [moment, actionSetting(moment, name)] as const,
);

const GOOGLE_ADS_CLIENT_ID = setting({
  name: "GOOGLE_ADS_CLIENT_ID",
  description: "the OAuth client's id (….apps.googleusercontent.com)",
  schema: text([
    (raw) => /^[A-Za-z0-9._-]{1,200}\.apps\.googleusercontent\.com$/.test(raw),
    (raw) => `must be an OAuth client id ending in .apps.googleusercontent.com, got ${shown(raw)}`,
  ]),
});

const GOOGLE_ADS_CLIENT_SECRET = setting({
  name: "GOOGLE_ADS_CLIENT_SECRET",
  description: "the OAuth client's secret",
  secret: true,
  schema: text([
    (raw) => TOKEN(8, 256).test(raw),
    "must be the OAuth client's secret: 8 to 256 visible characters without spaces",
  ]),
});

const GOOGLE_ADS_REFRESH_TOKEN = setting({
  name: "GOOGLE_ADS_REFRESH_TOKEN",
  description: "the OAuth refresh token the site acts with",
  secret: true,
  schema: text([
    (raw) => TOKEN(10, 2048).test(raw),
    "must be an OAuth refresh token: 10 to 2048 visible characters without spaces",
  ]),
});

const GOOGLE_DATA_MANAGER_ENDPOINT = endpoint(
  {
    name: "GOOGLE_DATA_MANAGER_ENDPOINT",
    description: "the Data Manager API base; http: only on loopback, for tests",
    default: DEFAULT_DATA_MANAGER_ENDPOINT,
  },
  true,
);

const GOOGLE_OAUTH_ENDPOINT = endpoint({
  name: "GOOGLE_OAUTH_ENDPOINT",
  description: "Google's OAuth token endpoint; http: only on loopback, for tests",
  default: DEFAULT_GOOGLE_OAUTH_ENDPOINT,
});

const GOOGLE_ADS_SEND = momentsSetting("GOOGLE_ADS_SEND", "Google Ads");

function readGoogle(env: Env): GoogleSettings | null {
  const endpoint = GOOGLE_DATA_MANAGER_ENDPOINT.read(env);
  const oauthEndpoint = GOOGLE_OAUTH_ENDPOINT.read(env);
  const moments = GOOGLE_ADS_SEND.read(env);
  const anyAction = Object.values(ACTION_SETTINGS).some((name) => read(env, name) !== undefined);
  const values = allOrNone(env, REQUIRED);
  if (!values) {
    // A setting that means nothing alone is a mistake, not an "off".
    const stray = [...Object.values(ACTION_SETTINGS), "GOOGLE_ADS_LOGIN_CUSTOMER_ID"].find(
      (name) => read(env, name) !== undefined,
    );
    if (stray) throw new ConfigError("GOOGLE_ADS_CUSTOMER_ID", `must be set when ${stray} is`);
    return null;
  }
  if (!anyAction) {
    throw new ConfigError(
      "GOOGLE_ADS_CONVERSION_ACTION",
      "must be set (or one of GOOGLE_ADS_CHAT_, _QUALIFIED_ or _INSTALLED_CONVERSION_ACTION) when the other GOOGLE_ADS_ settings are",
    );
  }
  const customerId = GOOGLE_ADS_CUSTOMER_ID.read(env) as string;
  const loginCustomerId = GOOGLE_ADS_LOGIN_CUSTOMER_ID.read(env);
  const actions: Partial<Record<Moment, string>> = {};
  for (const [moment, action] of ACTIONS) {
    const named = action.read(env);
    if (named === null) continue;
    if (named.customer !== undefined && named.customer !== customerId) {
      throw new ConfigError(
        action.name,
        `names an action of account ${named.customer}: GOOGLE_ADS_CUSTOMER_ID must be the account that owns the conversion actions`,
      );
    }
    actions[moment] = named.id;
  }
  return {
    customerId,
    loginCustomerId,
    actions,
    clientId: GOOGLE_ADS_CLIENT_ID.read(env) as string,
    clientSecret: GOOGLE_ADS_CLIENT_SECRET.read(env) as string,
    refreshToken: GOOGLE_ADS_REFRESH_TOKEN.read(env) as string,
    endpoint,
    oauthEndpoint,
    moments,
    unused: RETIRED.filter((name) => read(env, name) !== undefined),
  };
}

const GOOGLE_SETTINGS = [
  GOOGLE_ADS_CUSTOMER_ID,
  GOOGLE_ADS_LOGIN_CUSTOMER_ID,
  ...ACTIONS.map(([, action]) => action),
  GOOGLE_ADS_CLIENT_ID,
  GOOGLE_ADS_CLIENT_SECRET,
  GOOGLE_ADS_REFRESH_TOKEN,
  GOOGLE_DATA_MANAGER_ENDPOINT,
  GOOGLE_OAUTH_ENDPOINT,
  GOOGLE_ADS_SEND,
];

export const google: Destination<GoogleSettings> = {
  name: "google_ads",
  settings: {
    names: GOOGLE_SETTINGS.map(({ name }) => name),
    declared: GOOGLE_SETTINGS,
    read: readGoogle,
  },
  maxAgeMs: GOOGLE_MAX_AGE_MS,
  // A transaction id Google has on an action is the same conversion, restated.
  deduplicates: true,
  secrets: (settings) => [settings.clientSecret, settings.refreshToken],
  sending,
  moments: (settings) => settings.moments,
  warnings: (settings) =>
    settings.unused.map(
      (name) =>
        `${name} is set but not used: the Data Manager API takes no developer token and has its own address`,
    ),
  tap: (settings, lead) => {
    const action = settings.actions.tap;
    const click = clickOf(lead.campaign);
    if (!action || !click) return [];
    const userAgent = userAgentOf(lead);
    return [
      ingestCall(settings, action, {
        leadId: lead.id,
        at: lead.at,
        value: lead.value,
        click,
        device: { ...(userAgent ? { userAgent } : {}), ipAddress: lead.address },
      }),
    ];
  },
  chat: (settings, { lead, chat, value, phone }) =>
    lead ? later(settings, "chat", lead, chat.at, value, phone) : [],
  stage: (settings, facts) =>
    facts.stage === "lost"
      ? []
      : later(settings, facts.stage, facts.lead, facts.at, facts.value, facts.phone),
};
