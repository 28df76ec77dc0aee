import { isIP } from "node:net";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  dottedQuad,
  ipv6Groups,
  isMapped,
  mappedGroups,
  twoSpellings,
} from "../tests/support/ipv6-spellings";
import { clientAddress, normaliseAddress } from "./client-address";

/** The groups in RFC 5952's form, by another road than normaliseAddress's. */
const rfc5952 = (groups: number[]) => {
  const hex = groups.map((group) => group.toString(16));
  // The longest run of two or more zero groups, the first of equals, becomes `::`.
  let best = { start: -1, length: 1 };
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === 0) length++;
    if (length > best.length) best = { start, length };
  }
  if (best.start < 0) return hex.join(":");
  const before = hex.slice(0, best.start).join(":");
  const after = hex.slice(best.start + best.length).join(":");
  return `${before}::${after}`;
};

describe("normaliseAddress", () => {
  it("writes an IPv4-mapped IPv6 address as the IPv4 address it is", () => {
    expect(normaliseAddress("::ffff:127.0.0.2")).toBe("127.0.0.2");
    expect(normaliseAddress("::FFFF:203.0.113.9")).toBe("203.0.113.9");
    expect(normaliseAddress("2001:DB8::1")).toBe("2001:db8::1");
    expect(normaliseAddress("203.0.113.9")).toBe("203.0.113.9");
    expect(normaliseAddress("0:0:0:0:0:ffff:1.2.3.4")).toBe("1.2.3.4");
    expect(normaliseAddress("::FFFF:102:304")).toBe("1.2.3.4");
  });

  it("writes IPv6 in RFC 5952's form, without its zone id", () => {
    expect(normaliseAddress("2001:0DB8:0000:0000:0001:0000:0000:0001")).toBe("2001:db8::1:0:0:1");
    expect(normaliseAddress("2001:db8:0:0:1::1")).toBe("2001:db8::1:0:0:1");
    expect(normaliseAddress("fe80::1%eth0")).toBe("fe80::1");
    expect(normaliseAddress("::1")).toBe("::1");
    // An IPv4-compatible address (deprecated) is no mapped one: still IPv6.
    expect(normaliseAddress("::1.2.3.4")).toBe("::102:304");
  });

  it("leaves what is no address as it is", () => {
    for (const text of ["unknown", "Unknown", "", "1.2.3.256", "fe80::1%", "2001:db8::1::2"]) {
      expect(normaliseAddress(text)).toBe(text);
    }
  });

  it("writes every spelling of one IPv6 address one way, and two addresses two ways", () => {
    fc.assert(
      fc.property(twoSpellings(ipv6Groups), ipv6Groups, ([groups, one, other], another) => {
        fc.pre(!isMapped(groups));
        const written = normaliseAddress(one);
        expect(written).toBe(rfc5952(groups));
        expect(normaliseAddress(other)).toBe(written);
        expect(normaliseAddress(written)).toBe(written);
        expect(isIP(written)).toBe(6);
        // The whole address, not its network: two phones in one /64 are two visitors.
        fc.pre(!isMapped(another) && another.join() !== groups.join());
        expect(normaliseAddress(another.map((group) => group.toString(16)).join(":"))).not.toBe(
          written,
        );
      }),
      { numRuns: 2000 },
    );
  });

  it("writes every spelling of an IPv4-mapped address as its IPv4", () => {
    fc.assert(
      fc.property(twoSpellings(mappedGroups), ([groups, one, other]) => {
        const ipv4 = dottedQuad(groups[6], groups[7]);
        expect(normaliseAddress(one)).toBe(ipv4);
        expect(normaliseAddress(other)).toBe(ipv4);
      }),
    );
    fc.assert(
      fc.property(fc.ipV4(), (ipv4) => {
        expect(normaliseAddress(ipv4)).toBe(ipv4);
      }),
    );
  });
});

describe("clientAddress", () => {
  it("is the connection's address when no proxy is trusted, whatever the header says", () => {
    expect(clientAddress("::ffff:127.0.0.3", "203.0.113.9", 0)).toBe("127.0.0.3");
    expect(clientAddress("127.0.0.4", undefined, 0)).toBe("127.0.0.4");
  });
  it("takes the entry our own proxies appended, not what the client wrote", () => {
    const header = "1.2.3.4, 203.0.113.9";
    expect(clientAddress("10.0.0.1", header, 1)).toBe("203.0.113.9");
    expect(clientAddress("10.0.0.1", header, 2)).toBe("1.2.3.4");
    // Repeated headers count as one list, in order.
    expect(clientAddress("10.0.0.1", ["1.2.3.4", "203.0.113.9"], 1)).toBe("203.0.113.9");
    expect(clientAddress("10.0.0.1", "::ffff:198.51.100.7", 1)).toBe("198.51.100.7");
    expect(clientAddress("10.0.0.1", "::FFFF:C633:6407", 1)).toBe("198.51.100.7");
  });
  it("writes an IPv6 visitor one way, whether from the connection or a trusted proxy", () => {
    const spellings = [
      "2001:DB8:ABCD:12::1",
      "2001:0db8:abcd:0012:0:0:0:0001",
      "2001:db8:abcd:12::1",
    ];
    for (const spelling of spellings) {
      expect(clientAddress(spelling, undefined, 0)).toBe("2001:db8:abcd:12::1");
      expect(clientAddress("10.0.0.1", `203.0.113.1, ${spelling}`, 1)).toBe("2001:db8:abcd:12::1");
    }
    expect(clientAddress("fe80::1%eth0", undefined, 0)).toBe("fe80::1");
  });
  it("falls back to the connection's address for a header that is short or no address", () => {
    expect(clientAddress("10.0.0.1", "evil", 1)).toBe("10.0.0.1");
    expect(clientAddress("10.0.0.1", "1.2.3.4", 2)).toBe("10.0.0.1");
    expect(clientAddress("10.0.0.1", undefined, 1)).toBe("10.0.0.1");
    expect(clientAddress(undefined, undefined, 0)).toBe("unknown");
  });
});
