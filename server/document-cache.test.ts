import { describe, expect, it } from "vitest";
import { documentKey } from "./document-cache";

describe("documentKey", () => {
  const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1";
  const key = (path: string, agent = PHONE, more: Record<string, string> = {}) =>
    documentKey(new URL(`http://localhost${path}`), new Headers({ "user-agent": agent, ...more }));

  it("keys a page by what it shows of the request: path, preview wording, campaign", () => {
    expect(key("/")).toBe("/ default direct    ");
    expect(key("/share?platform=whatsapp")).toBe("/share whatsapp direct    ");
    expect(key("/?utm_source=IG&utm_campaign=launch")).toBe(
      "/ default ig  launch  ?utm_source=ig&utm_campaign=launch",
    );
    expect(key("/", "WhatsApp/2.23.20.0 A")).toBe("/ whatsapp direct    ");
  });

  it("gives one entry to URLs the page shows alike", () => {
    const home = key("/?source=instagram");
    for (const variant of [
      "/?source=Instagram",
      "/?source=instagram&ref=abc123",
      "/?utm_nope=1&source=instagram&ref=2",
      "/?source=instagram&source=facebook",
    ]) {
      expect(key(variant), variant).toBe(home);
    }
    expect(key("/?source=%zz")).toBe(key("/"));
    expect(key(`/?source=${"x".repeat(300)}`)).toBe(key("/"));
    expect(key("/?platform=<script>")).toBe(key("/"));
  });

  it("keys each language apart, and whether the page offers the other one", () => {
    expect(key("/ar")).toBe("/ar default direct    ");
    const arabicReader = { "accept-language": "ar-AE,ar;q=0.9" };
    expect(key("/", PHONE, arabicReader)).toBe("/ default direct   ar ");
    expect(key("/ar", PHONE, arabicReader)).toBe(key("/ar"));
    // Dismissed: the same page as everyone else's.
    expect(key("/", PHONE, { ...arabicReader, cookie: "darb_lang_hint=off" })).toBe(key("/"));
  });

  it("keys apart what the language links pass on of the campaign", () => {
    expect(key("/?source=ig&utm_content=one")).not.toBe(key("/?source=ig&utm_content=two"));
    expect(key("/?source=ig&utm_term=a")).not.toBe(key("/?source=ig"));
    expect(key("/?source=ig&utm_content=one&ref=x")).toBe(key("/?utm_content=one&source=IG"));
  });

  it("renders a page with an ad's click id for its request alone", () => {
    for (const id of ["gclid", "gbraid", "wbraid", "fbclid", "ttclid"]) {
      expect(key(`/?source=instagram&${id}=abc123`), id).toBeNull();
    }
    // An empty one is no click id: the page shows none.
    expect(key("/?source=instagram&fbclid=")).toBe(key("/?source=instagram"));
  });

  it("renders other pages, data requests and look-alike paths for the request alone", () => {
    expect(key("/thank-you?cta=email")).toBeNull();
    expect(key("/nope")).toBeNull();
    expect(key("/?_data=root")).toBeNull();
    expect(key("/ar/")).toBeNull();
    // Read as @remix-run/express reads it: a path, never a host.
    expect(key("//evil.example")).toBeNull();
  });
});
