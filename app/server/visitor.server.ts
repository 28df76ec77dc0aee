import { createHash, randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { isbot } from "isbot";
import { brand } from "~/content/brand";

export type Visitor = { clientId: string; sessionId: string; address: string };

/**
 * The visitor's address as our own proxies saw it. With `trustProxy` proxies in front, each one
 * appended the address it was talked to from, so the one we trust is that many from the right;
 * anything further left is whatever the client wrote.
 */
export function clientAddress(headers: Headers, trustProxy: number): string | null {
  if (trustProxy < 1) return null;
  const hops = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const candidate = hops[hops.length - trustProxy];
  return candidate && isIP(candidate) ? candidate : null;
}

const processSalt = randomBytes(32).toString("hex");

// Made once: building a DateTimeFormat costs more than the rest of visitorFor put together.
const dubaiDate = new Intl.DateTimeFormat("en-CA", { timeZone: brand.timeZone });

function dubaiDay(now: Date): string {
  return dubaiDate.format(now);
}

/**
 * A cookieless visitor id: a hash of a salt, the Dubai calendar day, the address and the user
 * agent. Nothing is stored; the id changes every day, and without the salt it reveals nothing.
 * The click in the browser and the lead on /thank-you share it, so GA4 joins them.
 */
export function visitorFor(
  headers: Headers,
  options: { salt: string | null; trustProxy: number; now?: Date },
): Visitor {
  const address = clientAddress(headers, options.trustProxy) ?? "unknown";
  const agent = headers.get("user-agent") ?? "";
  const day = dubaiDay(options.now ?? new Date());
  const digest = createHash("sha256")
    .update(`${options.salt ?? processSalt}\n${day}\n${address}\n${agent}`)
    .digest();
  return {
    // GA's own shape: two unsigned 32-bit numbers.
    clientId: `${digest.readUInt32BE(0)}.${digest.readUInt32BE(4)}`,
    sessionId: String(digest.readUInt32BE(8)),
    address,
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
