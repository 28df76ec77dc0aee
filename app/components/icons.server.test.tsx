import { describe, expect, it } from "vitest";
import { iconSymbols } from "~/components/icons.server";
import { ICON_NAMES, ICON_PREFIX } from "~/shared/icons";

const symbols = () =>
  new Map(
    [...iconSymbols().matchAll(/<symbol id="([^"]+)" viewBox="0 0 24 24">(.*?)<\/symbol>/g)].map(
      ([, id, shapes]) => [id, shapes],
    ),
  );

describe("the icon sprite", () => {
  it("draws every icon the parts name, each with shapes of its own", () => {
    const drawn = symbols();
    for (const name of ICON_NAMES)
      expect(drawn.get(`${ICON_PREFIX}${name}`)).toMatch(/^<(path|rect|circle|line|g) /);
    const shapes = ICON_NAMES.map((name) => drawn.get(`${ICON_PREFIX}${name}`));
    expect(new Set(shapes).size).toBe(ICON_NAMES.length);
  });

  it("takes the networks' marks from Tabler, without its invisible frame, in their colours", () => {
    const drawn = symbols();
    for (const brand of ["whatsapp", "facebook", "twitter", "linkedin"]) {
      const shapes = drawn.get(`${ICON_PREFIX}brand-${brand}`) ?? "";
      expect(shapes).not.toContain('stroke="none"');
      expect(shapes).not.toMatch(/<script|on\w+=/i);
    }
    // WhatsApp's mark: the speech bubble with its tail at the bottom left, in WhatsApp's teal
    // unless the <svg> that shows it sets --mark.
    expect(drawn.get(`${ICON_PREFIX}brand-whatsapp`)).toMatch(
      /^<g class="text-\[color:var\(--mark,#128c7e\)\] [^"]*"><path d="M3 21l1.65 -3.8/,
    );
  });
});
