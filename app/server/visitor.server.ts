import { createHash, randomBytes } from "node:crypto";
import { isbot } from "isbot";
import { isPrefetch } from "remix-utils/is-prefetch";
import { brand } from "~/content/brand";

export type Visitor = { clientId: string; sessionId: string; address: string };

const processSalt = randomBytes(32).toString("hex");

// Made once: building a DateTimeFormat costs more than the rest of visitorFor put together.
const dubaiDate = new Intl.DateTimeFormat("en-CA", { timeZone: brand.timeZone });

function dubaiDay(now: Date): string {
  return dubaiDate.format(now);
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
  };
}

/**
 * Bots are not leads (every browser names itself; a request that doesn't is a script), and a
 * browser that sends Global Privacy Control is not tracked.
 */
export function mayTrack(headers: Headers): boolean {
  if (headers.get("sec-gpc")?.trim() === "1") return false;
  const agent = headers.get("user-agent")?.trim();
  return Boolean(agent) && !isbot(agent);
}

/**
 * A prefetch or a prerender, not a visitor's tap. remix-utils' isPrefetch takes a purpose header
 * of exactly "prefetch"; Chrome prerenders with `Sec-Purpose: prefetch;prerender`.
 */
export function isPrefetched(request: Request): boolean {
  const purpose = request.headers.get("sec-purpose") ?? "";
  return isPrefetch(request) || /(^|[;,\s])prefetch([;,\s]|$)/i.test(purpose);
}
