/**
 * Whom a request comes from (docs/decisions/005-cookieless-visitor-id.md). Everything about a
 * visitor is keyed by this address: the visitor id, the lead dedupe, the per-address limits. A
 * wrong answer either merges different people into one (leads lost, one rate-limit bucket for a
 * whole audience) or lets one client pose as many.
 */
import { isIP } from "node:net";

/**
 * An address as visitors are keyed by, one spelling per address, so that writing it another way
 * is not another visitor: IPv4 as it is; IPv4-mapped IPv6 in any spelling (`::ffff:1.2.3.4`,
 * `::FFFF:102:304`, `0:0:0:0:0:ffff:1.2.3.4`) as its IPv4; other IPv6 in RFC 5952's form (lower
 * case, no leading zeros, the longest run of zeros as `::`) without its zone id. What is not an
 * address is left as it is.
 */
export function normaliseAddress(address: string): string {
  if (isIP(address) !== 6) return address;
  let host: string;
  try {
    // The URL parser writes IPv6 in RFC 5952's form, a mapped IPv4 as two hex groups. It takes
    // no zone id (`%eth0`), which names the link, not the address.
    host = new URL(`http://[${address.replace(/%.*$/s, "")}]`).hostname.slice(1, -1);
  } catch {
    return address;
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!mapped) return host;
  const high = Number.parseInt(mapped[1] ?? "0", 16);
  const low = Number.parseInt(mapped[2] ?? "0", 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
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
