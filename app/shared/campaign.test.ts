import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CAMPAIGN_PARAMS,
  type Campaign,
  CLICK_IDS,
  campaignDetails,
  campaignFrom,
  campaignQuery,
  hasClickId,
  isTagged,
  leadSource,
  MAX_CLICK_ID_LENGTH,
  MAX_TAG_LENGTH,
  setCampaign,
  TAGS,
} from "~/shared/campaign";

const from = (query: string) => campaignFrom(new URLSearchParams(query));
/** What another page reads back of the query a campaign is carried on with. */
const reread = (campaign: Campaign) => campaignFrom(new URLSearchParams(campaignQuery(campaign)));

/** C0, DEL, C1 and the bidi embeddings, overrides and isolates: what no campaign word keeps. */
function hasUnwanted(value: string): boolean {
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code <= 0x1f || (code >= 0x7f && code <= 0x9f)) return true;
    if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return true;
  }
  return false;
}
/** Half of a surrogate pair without its other half (cut in the middle of an emoji, say). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe("campaignFrom", () => {
  it("is empty for an untagged URL, and reads only the campaign's parameters", () => {
    expect(from("")).toEqual({});
    expect(
      from("cta=whatsapp&redirect=https://evil.example&returnUrl=/a&platform=wa&ref=x&sid=1"),
    ).toEqual({});
    // Names are as the networks spell them.
    expect(from("SOURCE=ig&UTM_SOURCE=fb&Utm_Medium=cpc&sccid=1&GCLID=2")).toEqual({});
  });

  it("reads every tag and click id", () => {
    const query = [...CAMPAIGN_PARAMS].map((name) => `${name}=${name}-value`).join("&");
    const campaign = from(query);
    expect(Object.keys(campaign)).toEqual([...CAMPAIGN_PARAMS]);
    for (const name of CAMPAIGN_PARAMS) expect(campaign[name], name).toBe(`${name}-value`);
  });

  it.each([
    ["utm_campaign=Ramadan%20Promo%202026", "Ramadan Promo 2026"],
    ["utm_campaign=Ramadan+Promo+2026", "Ramadan Promo 2026"],
    ["utm_campaign=INSTAGRAM", "INSTAGRAM"],
    ["utm_campaign=%D8%B1%D9%85%D8%B6%D8%A7%D9%86%20%D9%83%D8%B1%D9%8A%D9%85", "رمضان كريم"],
    ["utm_campaign=eid|v2|ar", "eid|v2|ar"],
    ["utm_campaign=%7B%7Bad.name%7D%7D", "{{ad.name}}"],
    ["utm_campaign={{campaign.name}}", "{{campaign.name}}"],
    ["utm_campaign=%3Cscript%3Ealert(1)%3C%2Fscript%3E", "<script>alert(1)</script>"],
    ["utm_campaign=50%25%20off%20%26%20more", "50% off & more"],
    ["utm_campaign=😀%20launch", "😀 launch"],
  ])("keeps free text as written: %s", (query, expected) => {
    expect(from(query).utm_campaign).toBe(expected);
  });

  it("does not lower-case any tag", () => {
    expect(
      from("source=Instagram&utm_source=FB&utm_medium=CPC&utm_term=Driving Lessons&utm_id=A1"),
    ).toEqual({
      source: "Instagram",
      utm_source: "FB",
      utm_medium: "CPC",
      utm_term: "Driving Lessons",
      utm_id: "A1",
    });
  });

  it.each([
    ["%20%20tiktok%20", "tiktok"],
    ["%09Ramadan%0A", "Ramadan"],
    ["Ramadan%20%20%20Promo", "Ramadan Promo"],
    ["Ramadan%09%0A%20Promo", "Ramadan Promo"],
    ["Ramadan%C2%A0%C2%A0Promo", "Ramadan Promo"],
    ["Ramadan%E2%80%A8Promo", "Ramadan Promo"],
    ["%EF%BB%BFRamadan", "Ramadan"],
  ])("trims and folds white space: %s -> %j", (raw, expected) => {
    expect(from(`utm_content=${raw}`).utm_content).toBe(expected);
  });

  it.each([
    ["ig%00", "ig"],
    ["%00ig", "ig"],
    ["ins%0Atagram", "ins tagram"],
    ["ins%0D%0Atagram", "ins tagram"],
    ["a%07b", "a b"],
    ["a%1Fb", "a b"],
    ["a%7Fb", "a b"],
    ["a%C2%80b", "a b"],
    ["a%C2%85b", "a b"],
    ["a%C2%9Fb", "a b"],
    // Invisible marks are removed outright: "ig" with a zero-width space is still "ig".
    ["abc%E2%80%AEgnp.exe", "abcgnp.exe"],
    ["a%E2%80%AAb%E2%80%ACc", "abc"],
    ["a%E2%81%A6b%E2%81%A9", "ab"],
    ["ig%E2%80%8B", "ig"],
    ["%EF%BB%BFig%E2%80%8F", "ig"],
    ["a%D8%9Cb", "ab"],
  ])("drops control and bidi characters: %s -> %j", (raw, expected) => {
    const value = from(`source=${raw}`).source;
    expect(value).toBe(expected);
    expect(hasUnwanted(value ?? "")).toBe(false);
  });

  it.each([
    "source=",
    "source=%20%20",
    "source=%00%01",
    "source=%E2%80%AE",
    "source=%0A%09",
    "utm_campaign=",
  ])("leaves out a value that is nothing once cleaned (%s)", (query) => {
    expect(from(query)).toEqual({});
  });

  it("cuts a long tag to 100 UTF-16 units, never inside a surrogate pair", () => {
    expect(MAX_TAG_LENGTH).toBe(100);
    expect(from(`utm_campaign=${"x".repeat(100)}`).utm_campaign).toBe("x".repeat(100));
    expect(from(`utm_campaign=${"x".repeat(150)}`).utm_campaign).toBe("x".repeat(100));
    // The emoji would straddle the limit: it goes whole.
    const straddling = `${"x".repeat(99)}😀tail`;
    expect(from(`utm_campaign=${encodeURIComponent(straddling)}`).utm_campaign).toBe(
      "x".repeat(99),
    );
    // One that fits is kept whole.
    const fitting = `${"x".repeat(98)}😀tail`;
    expect(from(`utm_campaign=${encodeURIComponent(fitting)}`).utm_campaign).toBe(
      `${"x".repeat(98)}😀`,
    );
    // Arabic is one unit a letter, so 100 of them fit.
    const arabic = "ب".repeat(120);
    expect(from(`utm_term=${encodeURIComponent(arabic)}`).utm_term).toBe("ب".repeat(100));
  });

  it("cuts after folding white space, and leaves no space at the end of a cut", () => {
    // 60 letters, 50 spaces, 60 letters: 121 characters folded, cut to 100.
    const spaced = `${"a".repeat(60)}${" ".repeat(50)}${"b".repeat(60)}`;
    expect(from(`utm_content=${encodeURIComponent(spaced)}`).utm_content).toBe(
      `${"a".repeat(60)} ${"b".repeat(39)}`,
    );
    const cutAtSpace = `${"a".repeat(99)} bcd`;
    expect(from(`utm_content=${encodeURIComponent(cutAtSpace)}`).utm_content).toBe("a".repeat(99));
  });

  it("keeps click ids whole up to 500 characters, and drops longer ones", () => {
    expect(MAX_CLICK_ID_LENGTH).toBe(500);
    const long = `IwAR${"x".repeat(196)}`;
    expect(from(`fbclid=${long}`).fbclid).toBe(long);
    const max = "C".repeat(500);
    for (const id of CLICK_IDS) {
      expect(from(`${id}=${max}`)[id], id).toBe(max);
      expect(from(`${id}=${max}x`), id).toEqual({});
    }
    // A long click id does not take the rest of the campaign with it.
    expect(from(`source=ig&gclid=${"g".repeat(501)}`)).toEqual({ source: "ig" });
  });

  it("trims a click id, and drops one with white space or control characters inside", () => {
    expect(from("gclid=%20Cj0KCQ_x-1%20").gclid).toBe("Cj0KCQ_x-1");
    expect(from("gclid=Cj0KCQ_x-1%00").gclid).toBe("Cj0KCQ_x-1");
    expect(from("gclid=Cj0%20KCQ")).toEqual({});
    expect(from("fbclid=IwAR+2")).toEqual({});
    expect(from("ttclid=a%0Ab")).toEqual({});
    expect(from("ScCid=a%E2%80%AEb")).toEqual({ ScCid: "ab" });
    expect(from("wbraid=")).toEqual({});
  });

  it("reads the first of repeated parameters", () => {
    expect(from("source=a&source=b")).toEqual({ source: "a" });
    expect(from("utm_campaign=Eid&utm_source=x&utm_campaign=Ramadan")).toEqual({
      utm_campaign: "Eid",
      utm_source: "x",
    });
    expect(from("gclid=first&gclid=second").gclid).toBe("first");
  });

  it("keeps a value's own & and = inside the value", () => {
    expect(from("utm_content=a%26redirect%3Dhttps%3A%2F%2Fevil.example")).toEqual({
      utm_content: "a&redirect=https://evil.example",
    });
  });
});

describe("campaignQuery", () => {
  it("is empty for an untagged visit", () => {
    expect(campaignQuery({})).toBe("");
    expect(campaignQuery({ source: "direct" })).toBe("");
    expect(campaignQuery({ source: "Direct" })).toBe("");
    expect(campaignQuery(from("cta=email&ref=abc"))).toBe("");
  });

  it("writes the campaign in one order whatever the URL's, tags then click ids", () => {
    const shuffled = from(
      "ScCid=s&ttclid=t&fbclid=f&wbraid=w&gbraid=b&gclid=g&utm_id=7&utm_content=c&utm_term=t&utm_campaign=eid&utm_medium=cpc&utm_source=fb&source=ig",
    );
    expect(campaignQuery(shuffled)).toBe(
      "?source=ig&utm_source=fb&utm_medium=cpc&utm_campaign=eid&utm_term=t&utm_content=c&utm_id=7&gclid=g&gbraid=b&wbraid=w&fbclid=f&ttclid=t&ScCid=s",
    );
    expect(campaignQuery({ utm_campaign: "eid", source: "ig" })).toBe(
      "?source=ig&utm_campaign=eid",
    );
  });

  it("carries source=direct when the visit is tagged otherwise", () => {
    expect(campaignQuery({ source: "direct", utm_medium: "cpc" })).toBe(
      "?source=direct&utm_medium=cpc",
    );
  });

  it("encodes free text", () => {
    expect(campaignQuery({ utm_campaign: "Ramadan Promo 2026" })).toBe(
      "?utm_campaign=Ramadan+Promo+2026",
    );
    expect(campaignQuery({ utm_content: "{{ad.name}}|v2" })).toBe(
      "?utm_content=%7B%7Bad.name%7D%7D%7Cv2",
    );
    expect(campaignQuery({ utm_term: "رمضان" })).toBe("?utm_term=%D8%B1%D9%85%D8%B6%D8%A7%D9%86");
    expect(campaignQuery({ utm_term: '"><img src=x>#top' })).toBe(
      "?utm_term=%22%3E%3Cimg+src%3Dx%3E%23top",
    );
  });

  it("never lets a value add a parameter or end the query", () => {
    const hostile = "a&redirect=https://evil.example&cta=link#frag";
    const query = campaignQuery({ source: hostile });
    expect(query).toBe("?source=a%26redirect%3Dhttps%3A%2F%2Fevil.example%26cta%3Dlink%23frag");
    const search = new URLSearchParams(query);
    expect([...search.keys()]).toEqual(["source"]);
    expect(search.get("source")).toBe(hostile);
    expect(new URL(`https://darb.example/${query}`).hash).toBe("");
    // Nor when a URL's own value was written that way.
    const read = from(`source=${encodeURIComponent(hostile)}&utm_medium=x%26redirect%3Dy`);
    expect([...new URLSearchParams(campaignQuery(read)).keys()]).toEqual(["source", "utm_medium"]);
  });

  it("is read back as the same campaign", () => {
    const campaign = from(
      "source=Instagram&utm_campaign=Ramadan%20Promo%202026&utm_content=%7B%7Bad.name%7D%7D&utm_term=%D8%B1%D9%85%D8%B6%D8%A7%D9%86&fbclid=IwAR2",
    );
    expect(reread(campaign)).toEqual(campaign);
  });
});

describe("setCampaign", () => {
  it("replaces a query's campaign and keeps the rest", () => {
    const search = new URLSearchParams(
      "cta=whatsapp&source=old&utm_medium=old&gclid=old&plan=pro&source=older",
    );
    setCampaign(search, { utm_source: "FB", utm_campaign: "Eid Sale" });
    expect(search.toString()).toBe("cta=whatsapp&plan=pro&utm_source=FB&utm_campaign=Eid+Sale");
  });

  it("removes every campaign parameter when the visit is untagged", () => {
    const search = new URLSearchParams("cta=email&source=ig&utm_campaign=x&fbclid=y");
    setCampaign(search, {});
    expect(search.toString()).toBe("cta=email");
    const direct = new URLSearchParams("cta=email&source=ig");
    setCampaign(direct, { source: "direct" });
    expect(direct.toString()).toBe("cta=email");
  });
});

describe("isTagged and hasClickId", () => {
  it.each([
    [{}, false],
    [{ source: "direct" }, false],
    [{ source: "DIRECT" }, false],
    [{ source: "ig" }, true],
    [{ source: "direct", utm_medium: "cpc" }, true],
    [{ utm_source: "direct" }, true],
    [{ utm_id: "42" }, true],
    [{ utm_term: "x" }, true],
    [{ gclid: "x" }, true],
    [{ ScCid: "x" }, true],
  ] as [Campaign, boolean][])("isTagged(%j) is %s", (campaign, expected) => {
    expect(isTagged(campaign)).toBe(expected);
  });

  it("says when a click id came with the visit", () => {
    for (const id of CLICK_IDS) expect(hasClickId({ source: "ig", [id]: "abc" }), id).toBe(true);
    expect(hasClickId({})).toBe(false);
    expect(hasClickId({ source: "ig", utm_id: "7", utm_campaign: "gclid" })).toBe(false);
    expect(hasClickId(from("source=ig&fbclid="))).toBe(false);
  });
});

describe("leadSource", () => {
  it.each([
    [{}, "direct"],
    [{ utm_medium: "cpc", gclid: "x" }, "direct"],
    [{ source: "Instagram" }, "Instagram"],
    [{ utm_source: "Facebook Ads" }, "Facebook Ads"],
    [{ source: "tiktok", utm_source: "facebook" }, "tiktok"],
    [{ source: "direct", utm_source: "facebook" }, "direct"],
  ] as [Campaign, string][])("%j -> %j", (campaign, expected) => {
    expect(leadSource(campaign)).toBe(expected);
  });
});

describe("campaignDetails", () => {
  it("names GA4's campaign_details parameters", () => {
    expect(
      campaignDetails({
        source: "ig",
        utm_source: "Facebook",
        utm_medium: "paid social",
        utm_campaign: "Ramadan Promo 2026",
        utm_term: "driving",
        utm_content: "{{ad.name}}",
        utm_id: "120210",
        gclid: "g",
        fbclid: "f",
      }),
    ).toEqual({
      source: "Facebook",
      medium: "paid social",
      campaign: "Ramadan Promo 2026",
      term: "driving",
      content: "{{ad.name}}",
      campaign_id: "120210",
    });
  });

  it("takes our source when there is no utm_source, but never direct", () => {
    expect(campaignDetails({ source: "Instagram", utm_campaign: "eid" })).toEqual({
      source: "Instagram",
      campaign: "eid",
    });
    expect(campaignDetails({ source: "direct", utm_medium: "cpc" })).toEqual({ medium: "cpc" });
    expect(campaignDetails({ source: "Direct" })).toEqual({});
  });

  it("is empty for an untagged visit and for click ids alone", () => {
    expect(campaignDetails({})).toEqual({});
    expect(campaignDetails({ gclid: "x", fbclid: "y" })).toEqual({});
  });
});

describe("properties", () => {
  const NUM_RUNS = 1000;
  /** Pieces that break naive query handling, plus control, bidi, space and astral characters. */
  const PIECES = [
    "&",
    "=",
    "#",
    "?",
    "+",
    "%",
    "%20",
    "%00",
    " ",
    "  ",
    "\t",
    "\n",
    "\u0000",
    "\u007f",
    "\u0085",
    "\u00a0",
    "\u202e",
    "\u2066",
    "\u2028",
    "\ufeff",
    "😀",
    "رمضان",
    "{{ad.name}}",
    "|",
    "redirect=https://evil.example",
    "Ramadan Promo 2026",
  ];
  const value = fc.oneof(
    fc.string({ unit: "binary", maxLength: 160 }),
    fc.string({ unit: "grapheme", maxLength: 160 }),
    fc.string({ maxLength: 600 }),
    fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((parts) => parts.join("")),
  );
  /** Any URL's values for any of the campaign's parameters, and some others. */
  const search = fc
    .array(fc.tuple(fc.constantFrom(...CAMPAIGN_PARAMS, "cta", "redirect"), value), {
      maxLength: 12,
    })
    .map((pairs) => new URLSearchParams(pairs));

  it("cleans every value: short, trimmed, single-spaced, no control or bidi characters", () => {
    fc.assert(
      fc.property(search, (params) => {
        const campaign = campaignFrom(params);
        for (const [name, cleaned] of Object.entries(campaign)) {
          const max = (CLICK_IDS as readonly string[]).includes(name)
            ? MAX_CLICK_ID_LENGTH
            : MAX_TAG_LENGTH;
          expect(cleaned.length).toBeGreaterThan(0);
          expect(cleaned.length).toBeLessThanOrEqual(max);
          expect(hasUnwanted(cleaned)).toBe(false);
          expect(cleaned).toBe(cleaned.trim());
          expect(cleaned).not.toMatch(/\s\s/u);
          expect(cleaned).not.toMatch(LONE_SURROGATE);
        }
        for (const name of TAGS) {
          expect((campaign[name] ?? "").length).toBeLessThanOrEqual(MAX_TAG_LENGTH);
        }
        for (const name of CLICK_IDS) expect(campaign[name] ?? "").not.toMatch(/\s/u);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("a campaign's query is read back as the same campaign, and only as it", () => {
    fc.assert(
      fc.property(search, (params) => {
        const campaign = campaignFrom(params);
        const query = campaignQuery(campaign);
        if (!isTagged(campaign)) {
          expect(query).toBe("");
          return;
        }
        expect(reread(campaign)).toEqual(campaign);
        const names = [...new URLSearchParams(query).keys()];
        expect(names).toEqual(CAMPAIGN_PARAMS.filter((name) => campaign[name] !== undefined));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("cleaning is idempotent: a cleaned campaign's values come back unchanged", () => {
    fc.assert(
      fc.property(search, (params) => {
        const campaign = campaignFrom(params);
        const again = new URLSearchParams(Object.entries(campaign) as [string, string][]);
        expect(campaignFrom(again)).toEqual(campaign);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
