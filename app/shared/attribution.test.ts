import { describe, expect, it } from "vitest";
import {
  attributionFrom,
  campaignSearch,
  normaliseToken,
  parseStoredAttribution,
} from "~/shared/attribution";

const from = (query: string) => attributionFrom(new URLSearchParams(query));

describe("attributionFrom", () => {
  it("is direct without a source", () => {
    expect(from("")).toEqual({ source: "direct" });
    expect(from("utm_medium=social")).toEqual({ source: "direct" });
  });
  it("reads source, lower-cased", () => {
    expect(from("source=Instagram")).toEqual({ source: "instagram" });
  });
  it("falls back to utm_source and keeps medium and campaign", () => {
    expect(from("utm_source=WhatsApp&utm_medium=Social&utm_campaign=ramadan_2026")).toEqual({
      source: "whatsapp",
      medium: "social",
      campaign: "ramadan_2026",
    });
  });
  it("prefers source over utm_source", () => {
    expect(from("source=tiktok&utm_source=instagram").source).toBe("tiktok");
  });
  it.each([
    "source=%3Cscript%3E",
    "source=a%20b",
    `source=${"a".repeat(65)}`,
    "source=ins%0Atagram",
    "source=",
    "source=%D8%AF%D8%A8%D9%8A",
  ])("turns %s into direct", (query) => {
    expect(from(query).source).toBe("direct");
  });
  it("drops a bad medium but keeps a good source", () => {
    expect(from("utm_source=x&utm_medium=%22%3E")).toEqual({ source: "x" });
  });
});

describe("normaliseToken", () => {
  it("accepts exactly 64 characters of the allowed alphabet", () => {
    expect(normaliseToken("a.b_c-1".padEnd(64, "z"))).toHaveLength(64);
  });
});

describe("parseStoredAttribution", () => {
  it("reads back what was stored", () => {
    expect(parseStoredAttribution('{"source":"instagram","campaign":"eid"}')).toEqual({
      source: "instagram",
      campaign: "eid",
    });
  });
  it.each([null, "", "not json", "[]", "null", '{"source":"<b>"}', '{"source":42}'])(
    "ignores %j",
    (raw) => expect(parseStoredAttribution(raw)).toBeNull(),
  );
});

describe("campaignSearch", () => {
  it("carries the normalised source, medium and campaign on", () => {
    expect(campaignSearch(from("utm_source=Facebook&utm_medium=CPC&utm_campaign=eid"))).toBe(
      "?source=facebook&utm_medium=cpc&utm_campaign=eid",
    );
    expect(campaignSearch(from("source=instagram"))).toBe("?source=instagram");
  });
  it.each(["", "source=%3Cscript%3E", "source=%2F%2Fevil.example", "utm_medium=cpc"])(
    "is empty for a direct visit or hostile input (%s)",
    (query) => expect(campaignSearch(from(query))).toBe(""),
  );
});
