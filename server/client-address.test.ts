import { describe, expect, it } from "vitest";
import { clientAddress, normaliseAddress } from "./client-address";

describe("normaliseAddress", () => {
  it("writes an IPv4-mapped IPv6 address as the IPv4 address it is", () => {
    expect(normaliseAddress("::ffff:127.0.0.2")).toBe("127.0.0.2");
    expect(normaliseAddress("::FFFF:203.0.113.9")).toBe("203.0.113.9");
    expect(normaliseAddress("2001:DB8::1")).toBe("2001:db8::1");
    expect(normaliseAddress("203.0.113.9")).toBe("203.0.113.9");
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
  });
  it("falls back to the connection's address for a header that is short or no address", () => {
    expect(clientAddress("10.0.0.1", "evil", 1)).toBe("10.0.0.1");
    expect(clientAddress("10.0.0.1", "1.2.3.4", 2)).toBe("10.0.0.1");
    expect(clientAddress("10.0.0.1", undefined, 1)).toBe("10.0.0.1");
    expect(clientAddress(undefined, undefined, 0)).toBe("unknown");
  });
});
