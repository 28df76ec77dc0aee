/**
 * What a per-address limit counts by (docs/decisions/006-per-address-limits.md): an IPv4 address
 * by itself, an IPv6 address by its /64. A mobile carrier gives each phone a /64 of its own, an
 * ISP a home at least one (RFC 6177), and the device picks the last 64 bits itself (SLAAC), so
 * one subscriber holds 2^64 addresses: counted one by one, each would be a fresh limit.
 */
import { isIP } from "node:net";

/**
 * The limits' key for an address: `203.0.113.9`, or `2001:db8:1:2::/64`. Any spelling of one
 * address gives one key (IPv4-mapped IPv6 is its IPv4; case, leading zeros, `::` and a zone id
 * make no difference); what is not an address is its own key.
 */
export function addressKey(address: string): string {
  const groups = ipv6Groups(address);
  if (!groups) return address;
  const [high = 0, low = 0] = groups.slice(6);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [high >> 8, high & 255, low >> 8, low & 255].join(".");
  }
  // The /64's first address in RFC 5952's form: its last four groups are zeros, the longest run.
  const prefix = groups.slice(0, 4);
  while (prefix.at(-1) === 0) prefix.pop();
  return `${prefix.map((group) => group.toString(16)).join(":")}::/64`;
}

/** An IPv6 address's eight 16-bit groups, or null for IPv4 and for what is no address. */
function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let host: string;
  try {
    // The URL parser writes it in RFC 5952's form: lower case, hex groups only, one `::` at most.
    // It takes no zone id (`%eth0`), which is the link's, not the address's.
    host = new URL(`http://[${address.replace(/%.*$/s, "")}]`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head = "", tail] = host.split("::");
  const read = (part: string | undefined) =>
    part ? part.split(":").map((group) => Number.parseInt(group, 16)) : [];
  const before = read(head);
  const after = read(tail);
  return [...before, ...Array(8 - before.length - after.length).fill(0), ...after];
}
