import { describe, expect, it } from "vitest";
import { handle } from "~/routes/thank-you";

describe("/thank-you's no-script refresh", () => {
  it("points at the target the loader chose", () => {
    expect(handle.refresh?.({ target: "https://wa.me/971585550134" })).toBe(
      "3; url=https://wa.me/971585550134",
    );
    expect(handle.refresh?.({ target: null })).toBeNull();
  });

  // A POST here is a 405: the error screen renders with no loader data, and must not crash.
  it.each([null, undefined])("is none without loader data (%s)", (data) => {
    expect(handle.refresh?.(data)).toBeNull();
  });
});
