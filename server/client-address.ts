/**
 * Whom a request comes from (docs/decisions/005-cookieless-visitor-id.md). Everything about a
 * visitor is keyed by this address: the visitor id, the lead dedupe, the per-address limits. A
 * wrong answer either merges different people into one (leads lost, one rate-limit bucket for a
 * whole audience) or lets one client pose as many.
 */
import { isIP } from "node:net";

/** An address as visitors are keyed by: IPv4-mapped IPv6 (`::ffff:1.2.3.4`) as its IPv4. */
export function normaliseAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped?.[1] ?? address.toLowerCase();
}

/**
 * The visitor's address. With no proxy trusted (the default: TRUST_PROXY=0), the connection's
 * own address, since a client can write any X-Forwarded-For it likes. With `trustProxy` proxies
 * in front, each appended the address it was talked to from, so the visitor is that many
 * entries from the right; a header too short, or an entry that is not an address, falls back to
 * the connection's address rather than to one shared "unknown".
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustProxy: number,
): string {
  const own = socketAddress ? normaliseAddress(socketAddress) : "unknown";
  if (trustProxy < 1) return own;
  const hops = [forwardedFor ?? []]
    .flat()
    .join(",")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const candidate = hops[hops.length - trustProxy];
  return candidate && isIP(candidate) ? normaliseAddress(candidate) : own;
}
