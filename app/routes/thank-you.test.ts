import { describe, expect, it } from "vitest";
import { handle, loader } from "~/routes/thank-you";
import { testContext } from "../../tests/support/request-context";
import { IPHONE_SAFARI_18 } from "../../tests/support/user-agents";

describe("/thank-you's no-script refresh", () => {
  it("points at the target the loader chose, at once", () => {
    expect(handle.refresh?.({ target: "https://wa.me/971585550134", handOff: true })).toBe(
      "0; url=https://wa.me/971585550134",
    );
    expect(handle.refresh?.({ target: null })).toBeNull();
  });

  // The same lead again (a reload, Back, a second tap): the thanks and the button, no redirect.
  it("is none when the page does not hand off", () => {
    expect(handle.refresh?.({ target: "https://wa.me/971585550134", handOff: false })).toBeNull();
  });

  it("is the same hand-off with JavaScript, a second from the tap, but never a mailto:", () => {
    const script = handle.script?.({ target: "https://wa.me/971585550134", handOff: true });
    expect(script).toContain('location.assign("https://wa.me/971585550134")');
    expect(script).toContain("1000 - performance.now()");
    expect(handle.script?.({ target: "https://wa.me/1", handOff: false })).toBeNull();
    expect(handle.script?.({ target: "mailto:hello@darb.ae", handOff: true })).toBeNull();
    expect(handle.script?.(null)).toBeNull();
  });

  // A POST here is a 405: the error screen renders with no loader data, and must not crash.
  it.each([null, undefined])("is none without loader data (%s)", (data) => {
    expect(handle.refresh?.(data)).toBeNull();
  });
});

describe("/thank-you's loader", () => {
  const visit = (dataRequest?: boolean) =>
    loader({
      request: new Request("https://darb.example/thank-you?cta=whatsapp&utm_source=ig", {
        headers: {
          "user-agent": IPHONE_SAFARI_18,
          "sec-fetch-dest": "document",
          "x-forwarded-for": "203.0.113.7",
        },
      }),
      context: testContext({ dataRequest }),
      params: {},
    }).then((response) => response.json() as Promise<{ leadId: string | null }>);

  it("counts a visitor's navigation", async () => {
    expect((await visit()).leadId).toEqual(expect.any(String));
  });

  // Remix has taken `_data` off the URL by now: the server's context says what the request was.
  it("counts no lead for a data request, whatever its headers say", async () => {
    expect((await visit(true)).leadId).toBeNull();
  });
});
