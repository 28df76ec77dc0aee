import { describe, expect, it } from "vitest";
import { creditOf, runningExperiment, shownVariant } from "~/leads/variant-credit.server";
import { expVariantString, parseVariantToken, variantToken } from "~/leads/variant-token";
import type { Experiment } from "~/shared/experiment";

const HERO: Experiment = {
  id: "hero_headline",
  status: "running",
  // Half the visitors: a carried variant is trusted whoever the address now makes the visitor.
  traffic: 0.5,
  variants: [
    { id: "control", weight: 50, copy: {} },
    { id: "cashback_first", weight: 50, copy: { "hero.headline": { en: "x", ar: "س" } } },
  ],
};
const OLD: Experiment = { ...HERO, id: "old_test", status: "stopped" };

describe("the variant token a page puts on its lead links", () => {
  it("is the variant's exp_variant_string, read back as it was", () => {
    const assignment = { experiment: "hero_headline", variant: "cashback_first" };
    const token = variantToken(assignment);
    expect(token).toBe("DRB-hero_headline-cashback_first");
    expect(token).toBe(expVariantString(assignment));
    expect(parseVariantToken(token)).toEqual(assignment);
  });

  it("reads nothing else: another prefix, a missing part, other characters, a part too long", () => {
    for (const junk of [
      "",
      "hero_headline",
      "hero_headline.control",
      "DRB-hero_headline",
      "DRB-hero_headline-",
      "DRB--control",
      "drb-hero_headline-control",
      "XYZ-hero_headline-control",
      "DRB-hero-headline-control",
      "DRB-hero_headline-control ",
      "DRB-hero_headline-<script>",
      `DRB-${"a".repeat(41)}-control`,
      `DRB-hero_headline-${"b".repeat(41)}`,
      "DRB-hero_headline-contról",
    ]) {
      expect(parseVariantToken(junk), junk).toBeNull();
    }
    expect(parseVariantToken(`DRB-${"a".repeat(40)}-${"b".repeat(40)}`)).not.toBeNull();
  });
});

describe("creditOf", () => {
  it("credits the running experiment's variant the link carried, whatever the visitor's address", () => {
    expect(creditOf([OLD, HERO], "DRB-hero_headline-cashback_first")).toEqual({
      credited: { experiment: "hero_headline", variant: "cashback_first" },
    });
    expect(creditOf([HERO], "DRB-hero_headline-control")).toEqual({
      credited: { experiment: "hero_headline", variant: "control" },
    });
  });

  it("sets a lead without a variant aside as `no_variant`", () => {
    expect(creditOf([HERO], undefined)).toEqual({
      setAside: { experiment: "hero_headline", reason: "no_variant" },
    });
  });

  it("sets aside as `unknown_variant` junk, a stopped experiment's, another's and a variant not in the file", () => {
    for (const token of [
      "",
      "junk",
      "DRB-old_test-control",
      "DRB-other-control",
      "DRB-hero_headline-removed",
      `DRB-hero_headline-${"x".repeat(500)}`,
    ]) {
      expect(creditOf([OLD, HERO], token), token).toEqual({
        setAside: { experiment: "hero_headline", reason: "unknown_variant" },
      });
    }
  });

  it("says nothing while no experiment runs, whatever the link carried", () => {
    expect(creditOf([OLD], "DRB-old_test-control")).toBeNull();
    expect(creditOf([], undefined)).toBeNull();
    expect(shownVariant([OLD], "DRB-old_test-control")).toBeNull();
  });
});

describe("the running experiment", () => {
  it("is only one whose status is running", () => {
    expect(runningExperiment([OLD])).toBeNull();
    expect(runningExperiment([OLD, HERO])?.id).toBe("hero_headline");
  });
});
