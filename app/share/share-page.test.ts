import { describe, expect, it } from "vitest";
import { displayLink, sharePlatformsFor } from "~/share/share-page";
import { SHARE_PLATFORMS } from "~/shared/share-platforms";

describe("the order the networks are offered in", () => {
  it("is WhatsApp first by default", () => {
    expect(SHARE_PLATFORMS[0]).toBe("whatsapp");
    expect(sharePlatformsFor("default")).toEqual(["whatsapp", "facebook", "twitter", "linkedin"]);
  });
  it("puts the network asked for first, WhatsApp next", () => {
    expect(sharePlatformsFor("twitter")).toEqual(["twitter", "whatsapp", "facebook", "linkedin"]);
    expect(sharePlatformsFor("whatsapp")).toEqual([...SHARE_PLATFORMS]);
  });
});

describe("displayLink", () => {
  it("shows host and path only", () => {
    expect(displayLink("https://darb.ae/?source=copy")).toBe("darb.ae");
    expect(displayLink("https://darb.ae/ar?source=copy")).toBe("darb.ae/ar");
    expect(displayLink("http://localhost:3000/ar?source=whatsapp#x")).toBe("localhost:3000/ar");
  });
});
