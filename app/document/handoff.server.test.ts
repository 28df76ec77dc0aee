// The contract with the installed Remix that handoff.server.ts relies on: the document's data is
// JSON with the routes' loader data under state.loaderData, escaped by createServerHandoffString.
import { createServerHandoffString } from "@remix-run/server-runtime/dist/serverHandoff.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { handoffWithoutHeads, sendHeadOnce } from "~/document/handoff.server";

// Its type names the single-fetch shape (no state); without single fetch, Remix passes the state.
const remixHandoff = (value: object) => createServerHandoffString(value as never);

afterEach(() => {
  vi.restoreAllMocks();
});

// What a hostile value could try inside a <script>: close it, open a comment, split a line.
const HOSTILE = "</script><script>alert(1)</script><!-- & \u2028 \u2029 >";

const handoff = (withHead: boolean) => ({
  url: "/?utm_source=x",
  future: { v3_fetcherPersist: true },
  state: {
    loaderData: {
      root: { locale: "ar", ui: { brandName: "درب", note: HOSTILE } },
      "routes/_index": {
        ...(withHead ? { head: [{ title: HOSTILE }, { name: "description", content: "x" }] } : {}),
        countdown: { renderedAt: 1 },
      },
    },
    actionData: null,
    errors: null,
  },
});

describe("the document's hydration data", () => {
  it("loses every route's head and nothing else, escaped exactly as Remix escapes it", () => {
    const sent = handoffWithoutHeads(remixHandoff(handoff(true)));
    expect(sent).toBe(remixHandoff(handoff(false)));
    expect(sent).not.toContain("</script>");
    expect(sent).not.toContain("<!--");
    expect(sent).not.toMatch(/[\u2028\u2029]/);
    expect(JSON.parse(sent ?? "").state.loaderData.root.ui.note).toBe(HOSTILE);
  });

  it("is unchanged, byte for byte, when no route has a head", () => {
    const stock = remixHandoff(handoff(false));
    expect(handoffWithoutHeads(stock)).toBe(stock);
  });

  it("is left as Remix wrote it, with one line said once, when it is not the shape known here", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    for (const unknown of ["{not json", '{"state":{}}', '{"state":{"loaderData":[]}}', "[]"]) {
      expect(handoffWithoutHeads(unknown)).toBeNull();
      expect(sendHeadOnce(unknown)).toBe(unknown);
    }
    expect(sendHeadOnce(undefined)).toBeUndefined();
    expect(log).toHaveBeenCalledTimes(1);
    expect(String(log.mock.calls[0]?.[0])).toMatch(/head is sent twice/);
  });
});
