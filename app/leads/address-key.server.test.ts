import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addressKey } from "~/leads/address-key.server";
import {
  dottedQuad,
  ipv6Groups,
  isMapped,
  mappedGroups,
  twoSpellings,
} from "../../tests/support/ipv6-spellings";

/** What the key of a /64 is, by another road: the URL parser's own RFC 5952 spelling. */
const networkOf = (groups: number[]) =>
  `${new URL(`http://[${[...groups.slice(0, 4), 0, 0, 0, 0].map((group) => group.toString(16)).join(":")}]`).hostname.slice(1, -1)}/64`;

describe("addressKey", () => {
  it("is an IPv4 address itself, and an IPv6 address's /64", () => {
    expect(addressKey("203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("2001:db8:1:2:a:b:c:d")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:DB8:0001:0002::FFFF")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8::/64");
    expect(addressKey("2001:0:0:1::1")).toBe("2001:0:0:1::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80::/64");
    expect(addressKey("::1")).toBe("::/64");
  });

  it("is an IPv4-mapped IPv6 address's IPv4, however it is written", () => {
    for (const spelling of ["::ffff:1.2.3.4", "::FFFF:102:304", "0:0:0:0:0:ffff:1.2.3.4"]) {
      expect(addressKey(spelling)).toBe("1.2.3.4");
    }
  });

  it("leaves what is no address as it is", () => {
    for (const text of ["unknown", "", "1.2.3.256", "2001:db8::1::2", "fe80::1%"]) {
      expect(addressKey(text)).toBe(text);
    }
  });

  it("gives every spelling of one IPv6 address its /64's one key", () => {
    fc.assert(
      fc.property(twoSpellings(ipv6Groups), ([groups, one, other]) => {
        fc.pre(!isMapped(groups));
        expect(addressKey(one)).toBe(networkOf(groups));
        expect(addressKey(other)).toBe(addressKey(one));
      }),
      { numRuns: 2000 },
    );
  });

  it("gives every spelling of an IPv4-mapped address its IPv4, as the IPv4 itself", () => {
    fc.assert(
      fc.property(twoSpellings(mappedGroups), ([groups, one, other]) => {
        const ipv4 = dottedQuad(groups[6], groups[7]);
        expect(addressKey(one)).toBe(ipv4);
        expect(addressKey(other)).toBe(ipv4);
      }),
    );
  });

  it("keeps addresses in different /64s apart, and puts those in one /64 together", () => {
    fc.assert(
      fc.property(ipv6Groups, ipv6Groups, (one, other) => {
        const mixed = [...one.slice(0, 4), ...other.slice(4)];
        // ::ffff:0:0/96 is IPv4 written as IPv6 (its own case above), wherever its halves came from.
        fc.pre(!isMapped(one) && !isMapped(other) && !isMapped(mixed));
        const text = (groups: number[]) => groups.map((group) => group.toString(16)).join(":");
        const sameNetwork = one.slice(0, 4).join() === other.slice(0, 4).join();
        expect(addressKey(text(one)) === addressKey(text(other))).toBe(sameNetwork);
        // The other's host bits on the one's network: the same /64.
        expect(addressKey(text(mixed))).toBe(addressKey(text(one)));
      }),
      // Once found at random: halves that together make ::ffff:0:0, an IPv4 address.
      {
        numRuns: 2000,
        examples: [
          [
            [0, 0, 0, 0, 0, 0, 0, 0],
            [0, 0, 1, 0, 0, 0xffff, 0, 0],
          ],
        ],
      },
    );
  });

  it("leaves IPv4 as it is", () => {
    fc.assert(
      fc.property(fc.ipV4(), (address) => {
        expect(addressKey(address)).toBe(address);
      }),
    );
  });
});
