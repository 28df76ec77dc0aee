import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigError, setting, shown, text } from "~/platform/setting-readers.server";

/** The message a setting's read stops with, or "" when it reads. */
function refusal(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  return "";
}

describe("setting", () => {
  const COUNT = setting({
    name: "COUNT",
    description: "a count for the tests",
    default: "3",
    schema: text(
      [(raw) => /^\d+$/.test(raw), (raw) => `must be digits, got ${shown(raw)}`],
      [(raw) => Number(raw) <= 9, "must be at most 9"],
    ).transform(Number),
  });

  it("reads the value trimmed, its default while unset or blank, and null without one", () => {
    expect(COUNT.read({ COUNT: " 7 " })).toBe(7);
    expect(COUNT.read({})).toBe(3);
    expect(COUNT.read({ COUNT: "  " })).toBe(3);
    const NAME = setting({ name: "NAME", description: "a name", schema: z.string() });
    expect(NAME.read({})).toBeNull();
  });

  it("stops with the first check's own message, after the variable's name", () => {
    expect(refusal(() => COUNT.read({ COUNT: "x" }))).toBe('COUNT must be digits, got "x"');
    // A later rule never sees what an earlier one refused.
    const seen: string[] = [];
    const ORDERED = setting({
      name: "ORDERED",
      description: "rules in order",
      schema: text([(raw) => raw !== "bad", "is bad"], [(raw) => seen.push(raw) > 0, "never"]),
    });
    expect(refusal(() => ORDERED.read({ ORDERED: "bad" }))).toBe("ORDERED is bad");
    expect(seen).toEqual([]);
    expect(refusal(() => COUNT.read({ COUNT: "12" }))).toBe("COUNT must be at most 9");
  });

  it("never passes zod's own words on to an operator", () => {
    const SHORT = setting({ name: "SHORT", description: "short", schema: z.string().max(2) });
    const message = refusal(() => SHORT.read({ SHORT: "abc" }));
    expect(message).toBe("SHORT has a value the server cannot use");
  });

  it("never shows a secret's value back, even when its check would", () => {
    const TOKEN = setting({
      name: "TOKEN",
      description: "a token",
      secret: true,
      schema: text([(raw) => raw.length > 20, (raw) => `is too short: ${shown(raw)}`]),
    });
    const message = refusal(() => TOKEN.read({ TOKEN: "hunter2" }));
    expect(message).not.toContain("hunter2");
    expect(message).toBe(
      "TOKEN has a value the server cannot use (its value is not shown: it is a secret)",
    );
  });
});
