/**
 * The settings every visitor sees: the site's address, its contact routes, the company behind it
 * and the end of the beta. The contact routes default to .env.example's samples, which are fine
 * on a laptop and refused on a public address.
 */
import { isIP } from "node:net";
import {
  ConfigError,
  type Env,
  isLoopbackHostname,
  parsed,
  read,
  type Setting,
  setting,
  shown,
  urlOf,
} from "~/platform/setting-readers.server";

export const SITE_URL = setting({
  name: "SITE_URL",
  description: "the public address, for canonical links, og:*, the sitemap and share links",
  secret: true,
  default: "http://localhost:3000",
  schema: parsed<string>((raw) => {
    const result = urlOf(raw, false);
    if ("error" in result) return result;
    const url = result.value;
    if (url.search || url.hash) return { error: "must not have a query or fragment" };
    return { value: `${url.origin}${url.pathname.replace(/\/+$/, "")}` };
  }),
});

/** Sample contact details from `.env.example`: good for trying the site, not for launch. */
export const SAMPLE_SETTINGS = {
  WHATSAPP_NUMBER: "971585550134",
  CONTACT_EMAIL: "hello@darb.ae",
  CONTACT_PHONE: "+971 4 555 0134",
  DEMO_URL: "https://demo.darb.ae/",
} as const;

type SampleSetting = keyof typeof SAMPLE_SETTINGS;
const SAMPLE_NAMES = Object.keys(SAMPLE_SETTINGS) as SampleSetting[];

const CONTACTS: Record<SampleSetting, Setting<string>> = {
  WHATSAPP_NUMBER: setting({
    name: "WHATSAPP_NUMBER",
    description: "the WhatsApp number every call to action opens, in international format",
    default: SAMPLE_SETTINGS.WHATSAPP_NUMBER,
    schema: parsed<string>((raw) => {
      // Accept the ways people write numbers ("+971 58-555 0134", "00971…"); keep what wa.me wants.
      const digits = raw.replace(/[\s().-]/g, "").replace(/^(\+|00)/, "");
      if (/^[1-9]\d{7,14}$/.test(digits)) return { value: digits };
      return {
        error: `must be an international number such as 971585550134, got ${shown(raw)}`,
      };
    }),
  }),
  CONTACT_EMAIL: setting({
    name: "CONTACT_EMAIL",
    description: "the e-mail address shown to visitors",
    default: SAMPLE_SETTINGS.CONTACT_EMAIL,
    // Strict on purpose: the address goes into mailto: links and must not carry headers or spaces.
    schema: parsed<string>((raw) =>
      /^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/.test(raw)
        ? { value: raw }
        : { error: `must be a plain e-mail address, got ${shown(raw)}` },
    ),
  }),
  CONTACT_PHONE: setting({
    name: "CONTACT_PHONE",
    description: "the phone number shown to visitors, as they should read it",
    default: SAMPLE_SETTINGS.CONTACT_PHONE,
    schema: parsed<string>((raw) => {
      const digits = raw.replace(/\D/g, "");
      if (/^\+?[0-9 ()-]+$/.test(raw) && digits.length >= 7 && digits.length <= 15) {
        return { value: raw };
      }
      return { error: `must be a phone number such as +971 4 555 0134, got ${shown(raw)}` };
    }),
  }),
  DEMO_URL: setting({
    name: "DEMO_URL",
    description: "the demo the page links to (https)",
    secret: true,
    default: SAMPLE_SETTINGS.DEMO_URL,
    schema: parsed<string>((raw) => {
      const result = urlOf(raw, true);
      return "error" in result ? result : { value: result.value.href };
    }),
  }),
};

export type Contacts = Record<SampleSetting, string>;

export function readContacts(env: Env): Contacts {
  return {
    WHATSAPP_NUMBER: CONTACTS.WHATSAPP_NUMBER.read(env),
    CONTACT_EMAIL: CONTACTS.CONTACT_EMAIL.read(env),
    CONTACT_PHONE: CONTACTS.CONTACT_PHONE.read(env),
    DEMO_URL: CONTACTS.DEMO_URL.read(env),
  };
}

/**
 * The contact settings still at the samples: unset, or written as .env.example writes them
 * (compared once parsed, so "+971 58 555 0134" is the sample number too).
 */
export function samplesInUse(contacts: Contacts): SampleSetting[] {
  const samples = readContacts({});
  const same = (name: SampleSetting) =>
    name === "CONTACT_PHONE"
      ? contacts[name].replace(/\D/g, "") === samples[name].replace(/\D/g, "")
      : contacts[name].toLowerCase() === samples[name].toLowerCase();
  return SAMPLE_NAMES.filter(same);
}

/**
 * On a public SITE_URL the samples would send real visitors, and their leads, to someone else's
 * number and inbox: start-up stops at the first one instead of warning.
 */
export function refuseSamplesInProduction(
  env: Env,
  siteUrl: string,
  samples: SampleSetting[],
): void {
  const [first] = samples;
  if (first === undefined || read(env, "SITE_URL") === undefined || !isPublicSiteUrl(siteUrl))
    return;
  const how = read(env, first) === undefined ? "is unset" : "is .env.example's sample";
  throw new ConfigError(
    first,
    `must be the site's own when SITE_URL is a public address: it ${how}, ${SAMPLE_SETTINGS[first]}, and visitors would reach that instead of you`,
  );
}

/** The top-level names RFC 2606 and RFC 6761 reserve: never a site on the internet. */
const RESERVED_TLDS = new Set(["example", "test", "invalid", "localhost"]);
const RESERVED_DOMAINS = ["example.com", "example.net", "example.org"];

/** Addresses no visitor on the internet reaches: unspecified, private, link-local. */
function isPrivateAddress(hostname: string): boolean {
  if (isIP(hostname) === 4) {
    const [a = 0, b = 0] = hostname.split(".").map(Number);
    return (
      a === 0 ||
      a === 10 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254)
    );
  }
  const v6 = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return isIP(v6) === 6 && (v6 === "::" || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6));
}

/**
 * Whether SITE_URL is the address of a site visitors reach: not loopback, not a private address,
 * not a single label (a machine's or a container's own name) and not a name reserved for
 * examples and tests (darb.example, site.test, example.com). Only then is it a production deploy.
 */
export function isPublicSiteUrl(siteUrl: string): boolean {
  const host = new URL(siteUrl).hostname.toLowerCase().replace(/\.$/, "");
  if (isLoopbackHostname(host) || isPrivateAddress(host)) return false;
  if (isIP(host.replace(/^\[|\]$/g, "")) !== 0) return true;
  const labels = host.split(".");
  if (labels.length < 2) return false;
  if (RESERVED_TLDS.has(labels.at(-1) ?? "")) return false;
  return !RESERVED_DOMAINS.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * An ISO 8601 date or date-time. Without an offset the time is Dubai's (UTC+4, no DST), so
 * BETA_CLOSES_AT=2026-06-15 means midnight in Dubai, which is what a marketer means.
 */
export function parseDubaiDate(raw: string): Date | null {
  const match = ISO_DATE.exec(raw);
  if (!match) return null;
  const [, y, mo, d, h = "00", mi = "00", s = "00", offset] = match;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset ?? "+04:00"}`);
  if (Number.isNaN(date.getTime())) return null;
  // Reject dates JavaScript silently rolls over, such as 2026-02-31.
  const check = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d)) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  return date;
}

export const BETA_CLOSES_AT = setting({
  name: "BETA_CLOSES_AT",
  description: "the end of the beta, the same for every visitor; unset, two days after a visit",
  schema: parsed<Date>((raw) => {
    const date = parseDubaiDate(raw);
    if (date) return { value: date };
    return {
      error: `must be an ISO date such as 2026-06-15 or 2026-06-15T18:00+04:00, got ${shown(raw)}`,
    };
  }),
});

export type Company = { name: string | null; licence: string | null; address: string | null };

/** The company settings and the most characters each may have: a line in the footer each. */
export const COMPANY_SETTINGS = [
  { variable: "COMPANY_NAME", key: "name", max: 120, what: "legal name" },
  { variable: "COMPANY_LICENCE", key: "licence", max: 40, what: "trade licence number" },
  { variable: "COMPANY_ADDRESS", key: "address", max: 200, what: "registered address" },
] as const;

// Control characters (C0, DEL, C1), line and paragraph separators, and the bidirectional
// overrides and isolates, which could turn the footer's text around.
const NOT_PRINTABLE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/**
 * COMPANY_NAME, COMPANY_LICENCE, COMPANY_ADDRESS: shown to every visitor as they are, so one
 * line of printable text each, bounded. A bad value is not shown back: it may be anything.
 */
const COMPANY = COMPANY_SETTINGS.map(({ variable, key, max, what }) => ({
  key,
  setting: setting({
    name: variable,
    description: `the company's ${what}, one line of at most ${max} characters`,
    schema: parsed<string>((raw) => {
      if (NOT_PRINTABLE.test(raw)) {
        return { error: "must be one line of text without control characters" };
      }
      if ([...raw].length > max) return { error: `must be at most ${max} characters` };
      return { value: raw.replace(/\s+/g, " ") };
    }),
  }),
}));

export function readCompany(env: Env): Company {
  const company: Company = { name: null, licence: null, address: null };
  for (const { key, setting } of COMPANY) company[key] = setting.read(env);
  return company;
}

/** What visitors see, in the order docs/settings.md lists it. */
export const PUBLIC_SETTINGS = [
  SITE_URL,
  ...Object.values(CONTACTS),
  BETA_CLOSES_AT,
  ...COMPANY.map(({ setting }) => setting),
];
