import { describe, expect, it } from "vitest";
import { campaignOf } from "~/shared/campaign-query";

const of = (search: string) => campaignOf(new URLSearchParams(search));

describe("campaignOf", () => {
  it("keeps the campaign's parameters, in one order, and nothing else", () => {
    expect(
      of(
        "x=1&utm_campaign=ramadan&platform=whatsapp&utm_medium=paid&source=instagram&returnUrl=/a",
      ),
    ).toEqual({ query: "?source=instagram&utm_medium=paid&utm_campaign=ramadan", perClick: false });
    expect(of("")).toEqual({ query: "", perClick: false });
    expect(of("cta=whatsapp&redirect=https://evil.example")).toEqual({
      query: "",
      perClick: false,
    });
  });

  it("passes on the source, medium and campaign as the page reads them", () => {
    expect(of("source=Instagram&utm_source=FB&utm_medium=%20CPC%20").query).toBe(
      "?source=instagram&utm_source=fb&utm_medium=cpc",
    );
    // What the page would not read as a source is not passed on as one.
    expect(of("source=%3Cscript%3E&utm_campaign=spring sale").query).toBe("");
    expect(of("source=a&source=b").query).toBe("?source=a");
  });

  it("passes on free text and click ids as they came, encoded", () => {
    expect(of("utm_content=spring%20sale%26more&utm_term=%22%3E%3Cimg&utm_id=42").query).toBe(
      "?utm_term=%22%3E%3Cimg&utm_content=spring+sale%26more&utm_id=42",
    );
    expect(of("gclid=Cj0KCQ_x-1&fbclid=IwAR2").query).toBe("?gclid=Cj0KCQ_x-1&fbclid=IwAR2");
    expect(of(`utm_content=${"x".repeat(201)}&utm_term=`).query).toBe("");
  });

  it("says when the campaign is one click's own", () => {
    for (const id of ["gclid", "gbraid", "wbraid", "fbclid", "ttclid"]) {
      expect(of(`source=ig&${id}=abc`).perClick, id).toBe(true);
    }
    expect(of("source=ig&fbclid=").perClick).toBe(false);
    expect(of("source=ig&utm_id=7").perClick).toBe(false);
  });
});
