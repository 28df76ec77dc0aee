import { createHash, randomBytes } from "node:crypto";
import { isbot } from "isbot";
import { brand } from "~/content/brand";

export type Visitor = {
  clientId: string;
  sessionId: string;
  address: string;
  /** The request's User-Agent, for GA4's device; never kept (analytics/device.server.ts). */
  userAgent?: string;
};

const processSalt = randomBytes(32).toString("hex");

// Made once: building a DateTimeFormat costs more than the rest of visitorFor put together.
const dubaiDate = new Intl.DateTimeFormat("en-CA", { timeZone: brand.timeZone });

/** The last minute's day: formatting it is most of what an experiment's request costs. */
let lastDay = { minute: Number.NaN, day: "" };

/** Dubai's calendar day, "YYYY-MM-DD": a visitor's id and an experiment's counters change with it. */
export function dubaiDay(now: Date): string {
  // Dubai's offset is whole hours, so its days change on a minute's boundary.
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute !== lastDay.minute) lastDay = { minute, day: dubaiDate.format(now) };
  return lastDay.day;
}

/**
 * A cookieless visitor id: a hash of a salt, the Dubai calendar day, the address and the user
 * agent. Nothing is stored; the id changes every day, and without the salt it reveals nothing.
 * The click in the browser and the lead on /thank-you share it, so GA4 joins them. The address
 * is the connection's (or a trusted proxy's entry: server/client-address.ts), so visitors on one
 * phone model behind different addresses are never one visitor
 * (docs/decisions/005-cookieless-visitor-id.md).
 */
export function visitorFor(
  who: { address: string; userAgent: string },
  options: { salt: string | null; now?: Date },
): Visitor {
  const day = dubaiDay(options.now ?? new Date());
  const digest = createHash("sha256")
    .update(`${options.salt ?? processSalt}\n${day}\n${who.address}\n${who.userAgent}`)
    .digest();
  return {
    // GA's own shape: two unsigned 32-bit numbers.
    clientId: `${digest.readUInt32BE(0)}.${digest.readUInt32BE(4)}`,
    sessionId: String(digest.readUInt32BE(8)),
    address: who.address,
    userAgent: who.userAgent,
  };
}

/**
 * Bots are not leads (every browser names itself; a request that doesn't is a script), and a
 * browser that sends Global Privacy Control is not tracked: `Sec-GPC: 1` wherever it appears,
 * repeated (Node joins repeated lines as "1, 1") or padded.
 */
export function mayTrack(headers: HeaderReader): boolean {
  if (listed(headers.get("sec-gpc")).includes("1")) return false;
  const agent = headers.get("user-agent")?.trim();
  return Boolean(agent) && !isBot(agent as string);
}

/** What a request's headers are read through: a Request's Headers, or the server's own view. */
export type HeaderReader = { get: (name: string) => string | null };

// isbot's expression is long: a page's visitors share few user agents, so each is tried once.
const bots = new Map<string, boolean>();
function isBot(agent: string): boolean {
  let known = bots.get(agent);
  if (known === undefined) {
    known = isbot(agent);
    if (bots.size >= 1000) bots.clear();
    bots.set(agent, known);
  }
  return known;
}

/** A header's items, in lower case: "A, b;c" is ["a", "b", "c"]. */
function listed(value: string | null): string[] {
  return (value ?? "")
    .toLowerCase()
    .split(/[,;]/)
    .map((item) => item.trim());
}

/**
 * The headers a browser says a request is not a visitor's tap with, and what they say: Chrome's
 * `Sec-Purpose: prefetch` (`;prerender`, `;anonymous-client-ip`), the older `Purpose` and
 * `Sec-Fetch-Purpose`, Firefox's `X-Moz` and `Moz-Purpose`, and Safari's `X-Purpose: preview`
 * (its Top Sites and link previews), in any case.
 */
const PURPOSE_HEADERS = [
  "purpose",
  "sec-purpose",
  "sec-fetch-purpose",
  "x-purpose",
  "moz-purpose",
  "x-moz",
];
const NOT_A_VISIT = new Set(["prefetch", "prerender", "preview"]);

/** A prefetch, a prerender or a preview, not a visitor's tap. */
export function isPrefetched(request: { headers: HeaderReader }): boolean {
  return PURPOSE_HEADERS.some((name) =>
    listed(request.headers.get(name)).some((item) => NOT_A_VISIT.has(item)),
  );
}

/**
 * Whether a request is a visitor's own navigation, the only kind a lead is counted for: a GET
 * (Remix runs a loader for a HEAD too, and answers it as the GET without the body: a HEAD is a
 * link checker or a preview), of a document (Remix strips `_data` from the URL, but browsers
 * say what they fetch in Sec-Fetch-Dest), not a prefetch, not a bot, and not from a browser that
 * asked not to be tracked.
 */
export function isVisitorsNavigation(request: { method: string; headers: HeaderReader }): boolean {
  const dest = request.headers.get("sec-fetch-dest");
  const isDocument = dest === null || dest === "document";
  return (
    request.method === "GET" && isDocument && !isPrefetched(request) && mayTrack(request.headers)
  );
}
