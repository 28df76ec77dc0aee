import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REF_ALPHABET, refInText } from "~/leads/chat-ref";
import {
  defaultTarget,
  readThankYou,
  safeRedirect,
  safeReturnUrl,
  type Targets,
} from "~/pages/thank-you.server";
import { CAMPAIGN_PARAMS, type Campaign, CLICK_IDS } from "~/shared/campaign";
import type { CtaType } from "~/shared/cta";

const targets: Targets = {
  whatsappNumber: "971585550134",
  email: "hello@darb.ae",
  demoUrl: "https://demo.darb.ae/",
  whatsappMessage: "Hi Darb!",
  emailSubject: "Darb: hello",
};
/** The same site with the demo under a path of the main domain, for the path rule. */
const pathDemoTargets: Targets = { ...targets, demoUrl: "https://darb.ae/demo" };

const WA = "https://wa.me/971585550134";
const WA_DEFAULT = "https://wa.me/971585550134?text=Hi%20Darb!";
const DEMO = "https://demo.darb.ae/";
const MAILTO = "mailto:hello@darb.ae?subject=Darb%3A%20hello";

const CTAS: readonly CtaType[] = ["whatsapp", "demo", "link", "email"];
/** What /thank-you sends each CTA to when the `redirect` is unusable or missing. */
const FALLBACK: Record<CtaType, string | null> = {
  whatsapp: WA_DEFAULT,
  demo: DEMO,
  link: null,
  email: MAILTO,
};

const thankYou = (query: string, t: Targets = targets) =>
  readThankYou(new URLSearchParams(query), t);

function hasControlOrSpace(value: string): boolean {
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f) || /\s/u.test(char)) return true;
  }
  return false;
}

const isWhatsapp = (target: string) => target === WA || target.startsWith(`${WA}?text=`);
const isDemo = (target: string) => target.startsWith(DEMO);

/**
 * Why a target is not on-site for its CTA, or null when it is: WhatsApp to our number only, the
 * demo origin only, the configured mailto for e-mail; https (or mailto:), no credentials, no
 * port, nothing invisible. Plain checks rather than `expect`, so the properties stay fast.
 */
function offSite(cta: CtaType, target: string): string | null {
  if (hasControlOrSpace(target) || target.includes("\\")) return "unsafe character";
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return "not an absolute URL";
  }
  if (cta === "email") {
    return target === MAILTO && url.protocol === "mailto:" ? null : "not the configured mailto";
  }
  if (cta === "whatsapp" && !isWhatsapp(target)) return "not our WhatsApp chat";
  if (cta === "demo" && !isDemo(target)) return "not the demo";
  if (cta === "link" && !isWhatsapp(target) && !isDemo(target)) return "neither WhatsApp nor demo";
  if (url.protocol !== "https:") return "not https";
  if (url.hostname !== "wa.me" && url.hostname !== "demo.darb.ae") return "foreign host";
  if (url.username || url.password || url.port) return "credentials or port";
  if (url.hostname === "wa.me") {
    if (url.pathname !== "/971585550134") return "wrong WhatsApp number";
    if ([...url.searchParams.keys()].some((key) => key !== "text")) return "extra parameters";
    if (url.hash) return "fragment";
  }
  return null;
}

/** safeRedirect may always decline; what it does return must be on-site for the CTA. */
function redirectProblem(cta: CtaType, result: string | null): string | null {
  if (result === null) return null;
  if (cta === "email") return "email used the redirect";
  return offSite(cta, result);
}

/** /thank-you always has a target except for a link without a usable redirect. */
function targetProblem(cta: CtaType, target: string | null): string | null {
  if (target === null) return cta === "link" ? null : "no target";
  return offSite(cta, target);
}

function returnUrlProblem(returnUrl: string): string | null {
  if (!returnUrl.startsWith("/") || returnUrl.startsWith("//")) return "not a path";
  if (returnUrl.includes("\\") || hasControlOrSpace(returnUrl)) return "unsafe character";
  const url = new URL(returnUrl, "https://darb.ae");
  if (url.origin !== "https://darb.ae") return `leaves the origin: ${url.origin}`;
  // Either language, any letter case, letters written as %XX: Remix routes them all there.
  if (/^(\/ar)?\/thank-you(\/|$)/i.test(decodeURIComponent(url.pathname)))
    return "back into /thank-you";
  return null;
}

/** Throws with the inputs when a property check fails (fast-check then shrinks them). */
function check(problem: string | null, ...context: unknown[]): void {
  if (problem !== null) throw new Error(`${problem}: ${JSON.stringify(context)}`);
}

describe("defaultTarget", () => {
  it.each([
    ["whatsapp", WA_DEFAULT],
    ["email", MAILTO],
    ["demo", DEMO],
    ["link", null],
  ] as [CtaType, string | null][])("%s leads to %j", (cta, expected) => {
    expect(defaultTarget(cta, targets)).toBe(expected);
  });

  it("builds every default from the configuration it is given", () => {
    const other: Targets = {
      whatsappNumber: "971500000001",
      email: "sales@example.ae",
      demoUrl: "https://try.example.ae/app",
      whatsappMessage: "Salaam & hi",
      emailSubject: "Question?",
    };
    expect(defaultTarget("whatsapp", other)).toBe(
      "https://wa.me/971500000001?text=Salaam%20%26%20hi",
    );
    expect(defaultTarget("email", other)).toBe("mailto:sales@example.ae?subject=Question%3F");
    expect(defaultTarget("demo", other)).toBe("https://try.example.ae/app");
    expect(defaultTarget("link", other)).toBeNull();
  });
});

describe("safeRedirect: accepted WhatsApp links are rebuilt", () => {
  const TEXT_500 = "a".repeat(500);
  const cases: [string, string][] = [
    ["https://wa.me/971585550134", WA],
    ["https://wa.me/971585550134?text=Hello", `${WA}?text=Hello`],
    ["HTTPS://WA.ME/971585550134", WA],
    ["https://WA.me/971585550134?text=Hi", `${WA}?text=Hi`],
    ["https://wa.me/971585550134?text=Hi+there", `${WA}?text=Hi%20there`],
    [
      "https://wa.me/971585550134?text=Hi%20Darb%21%20%D9%85%D8%B1%D8%AD%D8%A8%D8%A7",
      `${WA}?text=Hi%20Darb!%20%D9%85%D8%B1%D8%AD%D8%A8%D8%A7`,
    ],
    ["https://wa.me/971585550134?text=<script>", `${WA}?text=%3Cscript%3E`],
    ["https://wa.me/971585550134?text=%ZZ", `${WA}?text=%25ZZ`],
    ["https://wa.me/971585550134?text=a%26b%3Dc%23d", `${WA}?text=a%26b%3Dc%23d`],
    ["https://wa.me/971585550134?text=", WA],
    ["https://wa.me/971585550134?text=one&text=two", `${WA}?text=one`],
    ["https://wa.me/971585550134?text=a&utm_source=x&phone=1", `${WA}?text=a`],
    ["https://wa.me/971585550134?utm_source=x", WA],
    ["https://wa.me/971585550134#fragment", WA],
    [`https://wa.me/971585550134?text=${TEXT_500}`, `${WA}?text=${TEXT_500}`],
    ["https://api.whatsapp.com/send?phone=971585550134", WA],
    [
      "https://api.whatsapp.com/send?phone=971585550134&text=Hello%20there",
      `${WA}?text=Hello%20there`,
    ],
    ["https://api.whatsapp.com/send?text=a%26b%3Dc&phone=971585550134", `${WA}?text=a%26b%3Dc`],
    ["https://API.WhatsApp.com/send?phone=971585550134&text=Hi", `${WA}?text=Hi`],
  ];

  it.each(cases)("whatsapp: %j -> %j", (raw, expected) => {
    expect(safeRedirect(raw, "whatsapp", targets)).toBe(expected);
  });
  it.each(cases)("link: %j -> %j", (raw, expected) => {
    expect(safeRedirect(raw, "link", targets)).toBe(expected);
  });
  it.each(cases)("demo refuses WhatsApp link %j", (raw) => {
    expect(safeRedirect(raw, "demo", targets)).toBeNull();
  });
  it.each(cases)("email never uses redirect %j", (raw) => {
    expect(safeRedirect(raw, "email", targets)).toBeNull();
  });

  it("re-encodes the text instead of echoing it", () => {
    const raw = "https://wa.me/971585550134?text=%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E";
    const result = safeRedirect(raw, "whatsapp", targets);
    expect(result).toBe(`${WA}?text=${encodeURIComponent('"><img src=x onerror=alert(1)>')}`);
    expect(result).not.toContain("<");
    expect(result).not.toContain('"');
  });

  it.each([
    `https://wa.me/971585550134?text=${"a".repeat(501)}`,
    `https://wa.me/971585550134?text=${"%41".repeat(501)}`,
    `https://wa.me/971585550134?text=${"%D8%AF".repeat(501)}`,
    `https://api.whatsapp.com/send?phone=971585550134&text=${"b".repeat(501)}`,
  ])("refuses a text over 500 characters (%#)", (raw) => {
    expect(safeRedirect(raw, "whatsapp", targets)).toBeNull();
    expect(safeRedirect(raw, "link", targets)).toBeNull();
    expect(thankYou(`cta=whatsapp&redirect=${encodeURIComponent(raw)}`).target).toBe(WA_DEFAULT);
    expect(thankYou(`cta=link&redirect=${encodeURIComponent(raw)}`).target).toBeNull();
  });

  it("follows the configured number, not a fixed one", () => {
    const other = { ...targets, whatsappNumber: "971500000001" };
    expect(safeRedirect("https://wa.me/971500000001?text=x", "whatsapp", other)).toBe(
      "https://wa.me/971500000001?text=x",
    );
    expect(safeRedirect("https://wa.me/971585550134?text=x", "whatsapp", other)).toBeNull();
  });
});

describe("safeRedirect: a prefilled text that quotes a chat reference is refused", () => {
  // The webhook ties a chat to the lead whose reference its message quotes; the page appends the
  // visitor's own. A link carrying another lead's would move this chat's credit to that lead.
  it.each([
    "Hi Darb!\n\nRef DRB-7K2QX",
    "DRB-7K2QX",
    "ref drb-7k2qx",
    "Ref Drb 7K2qx please",
    "my code is DRB7K2QX.",
    "DRB\t7K2QX",
    "مرحبا\n\nالمرجع DRB-7K2QX",
    "رقمdrb-7k2qxشكرا",
  ])("%j", (text) => {
    for (const host of [
      `${WA}?text=${encodeURIComponent(text)}`,
      `https://api.whatsapp.com/send?phone=971585550134&text=${encodeURIComponent(text)}`,
    ]) {
      expect(safeRedirect(host, "whatsapp", targets)).toBeNull();
      expect(safeRedirect(host, "link", targets)).toBeNull();
      expect(thankYou(`cta=whatsapp&redirect=${encodeURIComponent(host)}`).target).toBe(WA_DEFAULT);
      expect(thankYou(`cta=link&redirect=${encodeURIComponent(host)}`).target).toBeNull();
    }
  });

  it.each(["Ref DRB-7K2Q", "Ref DRB-7K2QO", "XDRB-7K2QX", "Ref ABC-7K2QX", "DRB"])(
    "lets %j through: nothing a reference is read from",
    (text) => {
      expect(safeRedirect(`${WA}?text=${encodeURIComponent(text)}`, "whatsapp", targets)).toBe(
        `${WA}?text=${encodeURIComponent(text)}`,
      );
    },
  );
});

describe("safeRedirect: accepted demo links keep path and query", () => {
  const cases: [string, string][] = [
    ["https://demo.darb.ae/", DEMO],
    ["https://demo.darb.ae", DEMO],
    ["https://demo.darb.ae/drive?lang=ar&step=2", "https://demo.darb.ae/drive?lang=ar&step=2"],
    ["https://DEMO.darb.ae/Drive?x=1#top", "https://demo.darb.ae/Drive?x=1"],
    ["https://demo.darb.ae/a/../b", "https://demo.darb.ae/b"],
    ["https://demo.darb.ae/?q=<x>", "https://demo.darb.ae/?q=%3Cx%3E"],
    ["https://demo.darb.ae:443/x", "https://demo.darb.ae/x"],
    ["https://demo.darb.ae/caf%C3%A9/", "https://demo.darb.ae/caf%C3%A9/"],
  ];
  it.each(cases)("demo: %j -> %j", (raw, expected) => {
    expect(safeRedirect(raw, "demo", targets)).toBe(expected);
  });
  it.each(cases)("link: %j -> %j", (raw, expected) => {
    expect(safeRedirect(raw, "link", targets)).toBe(expected);
  });
  it.each(cases)("whatsapp refuses demo link %j", (raw) => {
    expect(safeRedirect(raw, "whatsapp", targets)).toBeNull();
  });
  it.each(cases)("email refuses demo link %j", (raw) => {
    expect(safeRedirect(raw, "email", targets)).toBeNull();
  });
});

describe("safeRedirect: a DEMO_URL with a path only allows that path and below", () => {
  it.each([
    ["https://darb.ae/demo", "https://darb.ae/demo"],
    ["https://darb.ae/demo/", "https://darb.ae/demo/"],
    ["https://darb.ae/demo/drive", "https://darb.ae/demo/drive"],
    ["https://darb.ae/demo/drive?step=2", "https://darb.ae/demo/drive?step=2"],
    ["https://darb.ae/demo?x=1", "https://darb.ae/demo?x=1"],
    ["https://DARB.AE/demo/drive#x", "https://darb.ae/demo/drive"],
  ])("accepts %j", (raw, expected) => {
    expect(safeRedirect(raw, "demo", pathDemoTargets)).toBe(expected);
    expect(safeRedirect(raw, "link", pathDemoTargets)).toBe(expected);
    expect(thankYou(`cta=demo&redirect=${encodeURIComponent(raw)}`, pathDemoTargets).target).toBe(
      expected,
    );
  });

  it.each([
    "https://darb.ae/demolition",
    "https://darb.ae/demo-old",
    "https://darb.ae/demo@evil.example",
    "https://darb.ae/other",
    "https://darb.ae/",
    "https://darb.ae",
    "https://darb.ae/Demo/drive",
    "https://darb.ae/DEMO",
    "https://darb.ae/x/demo",
    "https://darb.ae//demo",
    "https://darb.ae/demo/../other",
    "https://darb.ae/demo/%2e%2e/other",
    "https://darb.ae/demo/%2E%2E",
    "https://darb.ae/%64emo",
    "https://www.darb.ae/demo",
    "https://darb.ae.evil.example/demo",
    "https://evil.example/demo",
    "http://darb.ae/demo",
    "https://darb.ae:444/demo/drive",
    "https://user@darb.ae/demo",
    "https://darb.ae/demo\\drive",
    "https://demo.darb.ae/",
  ])("refuses %j", (raw) => {
    expect(safeRedirect(raw, "demo", pathDemoTargets)).toBeNull();
    expect(safeRedirect(raw, "link", pathDemoTargets)).toBeNull();
    expect(thankYou(`cta=demo&redirect=${encodeURIComponent(raw)}`, pathDemoTargets).target).toBe(
      "https://darb.ae/demo",
    );
  });
});

/** Every one of these must be declined by every CTA. */
const ATTACKS: string[] = [
  // Other hosts, look-alikes, user-info.
  "https://evil.example/971585550134",
  "https://evil.example/wa.me",
  "https://evil.example/wa.me/971585550134",
  "https://evil.example/?u=https://wa.me/971585550134",
  "https://wa.me@evil.example",
  "https://wa.me@evil.example/971585550134",
  "https://wa.me:971585550134@evil.example/",
  "https://demo.darb.ae@evil.example/",
  "https://user:pass@wa.me/971585550134",
  "https://wa.me@wa.me/971585550134",
  "https://user@demo.darb.ae/",
  "https://evil.example%23@wa.me/971585550134",
  "https://evil.example#@wa.me/971585550134",
  "https://evil.example?@wa.me/971585550134",
  "https://wa.me.evil.example",
  "https://wa.me.evil.example/971585550134",
  "https://demo.darb.ae.evil.example/",
  "https://api.whatsapp.com.evil.example/send?phone=971585550134",
  "https://evilwa.me/971585550134",
  "https://wwa.me/971585550134",
  "https://sub.demo.darb.ae/",
  "https://darb.ae/",
  "https://whatsapp.com/send?phone=971585550134",
  "https://web.whatsapp.com/send?phone=971585550134",
  "https://wa.me./971585550134",
  "https://demo.darb.ae./",
  "https://wa.me。/971585550134",
  "https://w\u0430.me/971585550134",
  "https://wa.m\u0435/971585550134",
  "https://d\u0435mo.darb.ae/",
  "https://xn--w-7sb.me/971585550134",
  "https://wa.me:444/971585550134",
  "https://wa.me:8443/971585550134",
  "https://demo.darb.ae:444/",
  "https://demo.darb.ae:80/",
  "https://127.0.0.1/",
  "https://[::1]/",
  "https://0x7f.1/",
  // Other schemes and scheme-less forms.
  "http://wa.me/971585550134",
  "http://demo.darb.ae/",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(document.domain)//https://wa.me/971585550134",
  "javascript://wa.me/%0aalert(1)",
  "javascript://wa.me/971585550134",
  "data:text/html,<script>alert(1)</script>",
  "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
  "mailto:hello@darb.ae",
  "mailto:evil@evil.example",
  "ftp://wa.me/971585550134",
  "ws://wa.me/971585550134",
  "wss://wa.me/971585550134",
  "file:///etc/passwd",
  "blob:https://wa.me/971585550134",
  "vbscript:msgbox(1)",
  "whatsapp://send?phone=971585550134",
  "intent://wa.me/971585550134#Intent;scheme=https;end",
  "//wa.me/971585550134",
  "//demo.darb.ae/",
  "//evil.example",
  "///evil.example",
  "/971585550134",
  "/",
  "wa.me/971585550134",
  "demo.darb.ae",
  "",
  "https:",
  "https://",
  "https:///",
  "https://?phone=971585550134",
  // Encoded variants.
  "%68ttps://wa.me/971585550134",
  "https%3A%2F%2Fwa.me%2F971585550134",
  "https%253A%252F%252Fwa.me%252F971585550134",
  "https%3A//wa.me/971585550134",
  "https:%2F%2Fwa.me/971585550134",
  "https://wa.me%2F971585550134",
  "https://wa.me%40evil.example/971585550134",
  "https://evil.example%2fwa.me",
  "https://wa.me/%39%37%31%35%38%35%35%35%30%31%33%34",
  "https://wa.me/971585550134%0a",
  "https://wa.me/971585550134%2F",
  "https://demo.darb.ae%2F@evil.example/",
  // Whitespace, controls, zero-width and bidi characters anywhere.
  " https://wa.me/971585550134",
  "https://wa.me/971585550134 ",
  "\thttps://wa.me/971585550134",
  "https://wa.me/971585550134\n",
  "ht\ttps://wa.me/971585550134",
  "https:/\t/wa.me/971585550134",
  "https://wa.\nme/971585550134",
  "https://wa.me/9715855\r50134",
  "https://wa.me/971585550134?text=a\rb",
  "\u0000https://wa.me/971585550134",
  "https://wa.me/971585550134\u0000",
  "https://wa.me\u0000.evil.example/",
  "https://wa.me/971585550134\u007f",
  "https://wa.me/971585550134\u0085",
  "https://wa.me/971585550134\u00a0",
  "\u3000https://wa.me/971585550134",
  "https://wa.me/971585550134\u2028",
  "https://wa\u200b.me/971585550134",
  "https://wa.me\u200c/971585550134",
  "https://wa.me\u200d/971585550134",
  "\ufeffhttps://wa.me/971585550134",
  "https://wa.me/971585550134\u2060",
  "https://wa\u2060.me/971585550134",
  "https://wa.me\u2064/971585550134",
  "https://demo\u2060.darb.ae/",
  "https://\u200fwa.me/971585550134",
  "https://\u200ewa.me/971585550134",
  "\u202ehttps://wa.me/971585550134",
  "https://wa.me/971585550134\u202e",
  "https://wa.me/\u202a971585550134",
  "\u2066https://demo.darb.ae/\u2069",
  "https://demo.darb.ae/\u200b",
  "https://demo.darb.ae/ drive",
  "https://wa\u061c.me/971585550134",
  "https://wa\u180e.me/971585550134",
  // Backslashes.
  "https:\\\\wa.me\\971585550134",
  "https:\\\\wa.me/971585550134",
  "https:/\\wa.me/971585550134",
  "https://wa.me\\@evil.example",
  "https://wa.me\\@evil.example/971585550134",
  "https://evil.example\\@wa.me/971585550134",
  "https://wa.me/971585550134\\",
  "\\\\wa.me/971585550134",
  "/\\evil.example",
  "https://demo.darb.ae\\.evil.example/",
  // A different or malformed WhatsApp number / path.
  "https://wa.me/971585550135",
  "https://wa.me/9715855501345",
  "https://wa.me/0971585550134",
  "https://wa.me/+971585550134",
  "https://wa.me/97158555013",
  "https://wa.me/971585550134/",
  "https://wa.me/971585550134/extra",
  "https://wa.me/message/ABCDEF",
  "https://wa.me/",
  "https://wa.me",
  "https://wa.me/?phone=971585550134",
  "https://api.whatsapp.com/send?phone=971585550135",
  "https://api.whatsapp.com/send?phone=971585550135&phone=971585550134",
  "https://api.whatsapp.com/send?phone=+971585550134",
  "https://api.whatsapp.com/send?phone=9715855501340",
  "https://api.whatsapp.com/send",
  "https://api.whatsapp.com/send/?phone=971585550134",
  "https://api.whatsapp.com/971585550134",
  "https://api.whatsapp.com/?phone=971585550134",
  "https://api.whatsapp.com/SEND?phone=971585550134",
  // Over-long values.
  `https://wa.me/971585550134?text=${"a".repeat(501)}`,
  `https://wa.me/971585550134?x=${"a".repeat(2048)}`,
  `https://demo.darb.ae/${"a".repeat(2100)}`,
  `https://demo.darb.ae/?q=${"%41".repeat(700)}`,
];

describe("safeRedirect: attacks are ignored for every CTA", () => {
  it.each(ATTACKS)("ignores %j", (attack) => {
    for (const cta of CTAS) expect(safeRedirect(attack, cta, targets), cta).toBeNull();
  });

  it("ignores a missing redirect", () => {
    for (const cta of CTAS) expect(safeRedirect(null, cta, targets)).toBeNull();
  });
});

describe("readThankYou: attacks fall back to the configured default", () => {
  it.each(ATTACKS)("encoded: %j", (attack) => {
    for (const cta of CTAS) {
      const result = thankYou(`cta=${cta}&redirect=${encodeURIComponent(attack)}`);
      expect(result.cta, cta).toBe(cta);
      expect(result.target, cta).toBe(FALLBACK[cta]);
    }
  });

  // Pasted into the query string as is, the value goes through one round of decoding ("+" is a
  // space, "%68" is "h", "&" and "#" cut it short), so it may turn into a valid link; whatever
  // comes out must still be the default or an on-site link for that CTA.
  it.each(ATTACKS)("decoded: %j", (attack) => {
    for (const cta of CTAS) {
      const result = thankYou(`cta=${cta}&redirect=${attack}`);
      expect(result.cta, cta).toBe(cta);
      if (result.target !== FALLBACK[cta])
        expect(targetProblem(cta, result.target), cta).toBeNull();
      if (cta === "email") expect(result.target).toBe(MAILTO);
    }
  });

  // Query strings as they would arrive on the wire; each decodes to an attack.
  const RAW_QUERIES = [
    "redirect=https://wa.me%40evil.example",
    "redirect=https://wa.me%40evil.example/971585550134",
    "redirect=https%3A%2F%2Fevil.example%2F971585550134",
    "redirect=%2568ttps://wa.me/971585550134",
    "redirect=https%253A%252F%252Fwa.me%252F971585550134",
    "redirect=https://wa.me/971585550134%0A",
    "redirect=https://wa.me/971585550134%0D%0ALocation:%20https://evil.example",
    "redirect=https://wa.me/971585550134%09",
    "redirect=%20https://wa.me/971585550134",
    "redirect=https://wa.me/971585550134?text=Hi+there",
    "redirect=https://wa.me/971585550134%00",
    "redirect=https://wa%E2%80%8B.me/971585550134",
    "redirect=https://wa.me/971585550134%E2%80%AE",
    "redirect=%EF%BB%BFhttps://wa.me/971585550134",
    "redirect=https://wa.me/971585550134%C2%A0",
    "redirect=https:%5C%5Cwa.me%5C971585550134",
    "redirect=https://wa.me%5C@evil.example",
    "redirect=https://w%D0%B0.me/971585550134",
    "redirect=javascript%3Aalert(1)",
    "redirect=javascript:alert(1)//https://wa.me/971585550134",
    "redirect=data:text/html,%3Cscript%3Ealert(1)%3C/script%3E",
    "redirect=//wa.me/971585550134",
    "redirect=%2F%2Fwa.me%2F971585550134",
    "redirect=http://wa.me/971585550134",
    "redirect=https://wa.me/971585550135",
    "redirect=https://wa.me:444/971585550134",
    "redirect=https://evil.example%23@wa.me/971585550134",
    "redirect=https://evil.example%3F@wa.me/971585550134",
    "redirect=https://wa.me/%E0%A4%A",
    "redirect=https://evil.example&redirect=https://wa.me/971585550134",
    "redirect=https://evil.example&redirect=https://demo.darb.ae/drive",
    "redirect=",
    "redirect",
    "",
    "Redirect=https://wa.me/971585550134",
    "redirect%20=https://wa.me/971585550134",
  ];
  it.each(RAW_QUERIES)("?%s", (query) => {
    for (const cta of CTAS) {
      const result = thankYou(`cta=${cta}&${query}`);
      expect(result.cta, cta).toBe(cta);
      expect(result.target, cta).toBe(FALLBACK[cta]);
    }
  });
});

describe("safeRedirect: URL-parser normalisation never yields anything but our own link", () => {
  // These parse (per `new URL`) to wa.me or demo.darb.ae. Either answer is acceptable: declined,
  // or the link rebuilt from configuration.
  const WA_QUIRKS = [
    "https:wa.me/971585550134",
    "https:/wa.me/971585550134",
    "https:///wa.me/971585550134",
    "https://wa%2Eme/971585550134",
    "https://wa.me%E2%80%8B/971585550134",
    "https://wa.me%C2%AD/971585550134",
    "https://\uff57\uff41\uff0e\uff4d\uff45/971585550134",
    "https://wa\u3002me/971585550134",
    "https://\u24e6a.me/971585550134",
    "https://wa\u00ad.me/971585550134",
    "https://wa\u034f.me/971585550134",
    "https://wa\ufe0f.me/971585550134",
    "https://wa.me:443/971585550134",
    "https://wa.me:0443/971585550134",
    "https://wa.me/./971585550134",
    "https://wa.me/x/../971585550134",
    "https://wa.me/%2e/971585550134",
    "https://api.whatsapp.com/send?phone=%39%37%31585550134",
    "https://api.whatsapp.com/./send?phone=971585550134",
    "https://wa.me/971585550134?#",
    "https://:@wa.me/971585550134",
  ];
  it.each(WA_QUIRKS)("whatsapp/link: %j", (raw) => {
    expect([null, WA]).toContain(safeRedirect(raw, "whatsapp", targets));
    expect([null, WA]).toContain(safeRedirect(raw, "link", targets));
    expect(safeRedirect(raw, "demo", targets)).toBeNull();
    expect(safeRedirect(raw, "email", targets)).toBeNull();
  });

  const DEMO_QUIRKS = [
    "https:demo.darb.ae/",
    "https:///demo.darb.ae/",
    "https://demo%2Edarb.ae/",
    "https://demo.darb.ae%E2%80%8B/",
    "https://\uff44emo.darb.ae/",
    "https://demo.darb.ae:443/",
  ];
  it.each(DEMO_QUIRKS)("demo/link: %j", (raw) => {
    expect([null, DEMO]).toContain(safeRedirect(raw, "demo", targets));
    expect([null, DEMO]).toContain(safeRedirect(raw, "link", targets));
    expect(safeRedirect(raw, "whatsapp", targets)).toBeNull();
  });
});

describe("readThankYou: CTA handling", () => {
  it("sends a WhatsApp CTA without a redirect to the configured chat", () => {
    expect(thankYou("cta=whatsapp")).toEqual({
      cta: "whatsapp",
      campaign: {},
      target: WA_DEFAULT,
      returnUrl: "/",
    });
  });

  it("follows a valid WhatsApp redirect, rebuilt", () => {
    const redirect = encodeURIComponent(
      "https://api.whatsapp.com/send?phone=971585550134&text=Hey",
    );
    expect(thankYou(`cta=whatsapp&source=Instagram&redirect=${redirect}&returnUrl=/share`)).toEqual(
      {
        cta: "whatsapp",
        campaign: { source: "Instagram" },
        target: `${WA}?text=Hey`,
        returnUrl: "/share",
      },
    );
  });

  it("follows a valid demo redirect", () => {
    const redirect = encodeURIComponent("https://demo.darb.ae/drive?step=2");
    expect(thankYou(`cta=demo&redirect=${redirect}`).target).toBe(
      "https://demo.darb.ae/drive?step=2",
    );
    expect(thankYou("cta=demo").target).toBe(DEMO);
  });

  it("takes either host for a link, and no target without one", () => {
    expect(thankYou(`cta=link&redirect=${encodeURIComponent(WA)}`).target).toBe(WA);
    expect(thankYou(`cta=link&redirect=${encodeURIComponent(DEMO)}`).target).toBe(DEMO);
    expect(thankYou("cta=link")).toEqual({
      cta: "link",
      campaign: {},
      target: null,
      returnUrl: "/",
    });
    expect(thankYou("cta=link&redirect=https://evil.example").target).toBeNull();
  });

  it.each([
    "",
    "redirect=https://wa.me/971585550134",
    `redirect=${encodeURIComponent(`${WA}?text=Other`)}`,
    `redirect=${encodeURIComponent("https://demo.darb.ae/drive")}`,
    "redirect=mailto:evil@evil.example",
    "redirect=https://evil.example",
  ])("e-mail always goes to the configured mailto (%j)", (query) => {
    expect(thankYou(`cta=email&${query}`).target).toBe(MAILTO);
  });

  it("reads the first of repeated parameters", () => {
    expect(thankYou(`cta=whatsapp&cta=demo&redirect=${encodeURIComponent(WA)}`)).toMatchObject({
      cta: "whatsapp",
      target: WA,
    });
    expect(thankYou(`cta=demo&redirect=${encodeURIComponent(WA)}&redirect=${DEMO}`).target).toBe(
      DEMO,
    );
  });

  it.each([
    "",
    "cta=",
    "cta",
    "cta=WhatsApp",
    "cta=EMAIL",
    "cta=%20whatsapp",
    "cta=whatsapp%20",
    "cta=whatsapp%00",
    "cta=whats+app",
    "cta=sms",
    "cta=phone",
    "cta=redirect",
    "cta=__proto__",
    "cta=constructor",
    "cta=toString",
    "cta=email,whatsapp",
    "cta[]=whatsapp",
    "CTA=whatsapp",
  ])("an invalid or missing cta gives no target (%j)", (query) => {
    const result = thankYou(
      `${query}&redirect=${encodeURIComponent(WA)}&source=ig&returnUrl=%2Fshare`,
    );
    expect(result).toEqual({
      cta: null,
      campaign: { source: "ig" },
      target: null,
      returnUrl: "/share",
    });
  });
});

describe("readThankYou: campaign", () => {
  it.each([
    ["", {}],
    ["source=instagram", { source: "instagram" }],
    // As written: the marketer's words, not lower-cased.
    ["source=Instagram", { source: "Instagram" }],
    ["source=INSTAGRAM", { source: "INSTAGRAM" }],
    ["source=ramadan_2026.v-1", { source: "ramadan_2026.v-1" }],
    ["source=%20tiktok%20", { source: "tiktok" }],
    ["source=a%20b", { source: "a b" }],
    ["source=ig+story", { source: "ig story" }],
    ["source=ig/story", { source: "ig/story" }],
    ["source=ig:story", { source: "ig:story" }],
    ["source=%3Cscript%3E", { source: "<script>" }],
    ["source=%D8%AF%D8%A8%D9%8A", { source: "دبي" }],
    ["source=%C4%B0nstagram", { source: "İnstagram" }],
    ["source=direct", { source: "direct" }],
    ["utm_campaign=Ramadan%20Promo%202026", { utm_campaign: "Ramadan Promo 2026" }],
    ["utm_content=%7B%7Bad.name%7D%7D|v2", { utm_content: "{{ad.name}}|v2" }],
    // Cleaned: control and bidi characters go, white space is folded, 100 characters at most.
    ["source=ins%0Atagram", { source: "ins tagram" }],
    ["source=ig%00", { source: "ig" }],
    ["source=ig%E2%80%AE", { source: "ig" }],
    ["utm_term=a%20%20%09b", { utm_term: "a b" }],
    [`source=${"a".repeat(101)}`, { source: "a".repeat(100) }],
    ["source=", {}],
    ["source=%20%00", {}],
    // Every tag and click id, each as written; the first of repeated ones.
    [
      "utm_source=Facebook&utm_medium=CPC&utm_campaign=Eid&utm_term=Driving&utm_content=A&utm_id=42",
      {
        utm_source: "Facebook",
        utm_medium: "CPC",
        utm_campaign: "Eid",
        utm_term: "Driving",
        utm_content: "A",
        utm_id: "42",
      },
    ],
    ["source=instagram&utm_source=facebook", { source: "instagram", utm_source: "facebook" }],
    ["source=a&source=b", { source: "a" }],
    [
      "gclid=Cj0KCQ_x-1&fbclid=IwAR2&ScCid=s1",
      { gclid: "Cj0KCQ_x-1", fbclid: "IwAR2", ScCid: "s1" },
    ],
    [`fbclid=${"f".repeat(500)}`, { fbclid: "f".repeat(500) }],
    [`fbclid=${"f".repeat(501)}`, {}],
    ["gclid=a%20b", {}],
    // Only the campaign: the lead link's other parameters are not part of it.
    ["ref=x&plan=pro&sid=1&redirect=https%3A%2F%2Fevil.example&returnUrl=%2Fshare", {}],
  ] as [string, Campaign][])("%j -> %j", (query, expected) => {
    expect(thankYou(`cta=whatsapp&${query}`).campaign).toEqual(expected);
    expect(thankYou(query).campaign).toEqual(expected);
  });

  it("keeps a value's & and = inside it: a campaign cannot set the redirect", () => {
    const words = encodeURIComponent(`x&redirect=https://evil.example&returnUrl=//evil.example`);
    const result = thankYou(`cta=link&utm_campaign=${words}`);
    expect(result.campaign).toEqual({
      utm_campaign: "x&redirect=https://evil.example&returnUrl=//evil.example",
    });
    expect(result.target).toBeNull();
    expect(result.returnUrl).toBe("/");
  });
});

describe("readThankYou: session", () => {
  it.each(["1", "1732480000", "0", "9".repeat(20)])("takes sid=%s", (sid) => {
    expect(thankYou(`cta=email&sid=${sid}`).sessionId).toBe(sid);
    expect(thankYou(`sid=${sid}`).sessionId).toBe(sid);
  });

  it.each([
    "",
    "abc",
    "-1",
    "1.5",
    "1e9",
    "%201",
    "1%20",
    "1%0A",
    "1%00",
    "%D9%A1",
    "9".repeat(21),
  ])("leaves out sid=%j", (sid) => {
    const result = thankYou(`cta=email&sid=${sid}`);
    expect(result).not.toHaveProperty("sessionId");
  });

  it("reads the first sid, and has none without one", () => {
    expect(thankYou("cta=demo&sid=123&sid=456").sessionId).toBe("123");
    expect(thankYou("cta=demo&sid=x&sid=456")).not.toHaveProperty("sessionId");
    expect(thankYou("cta=demo")).not.toHaveProperty("sessionId");
    expect(thankYou("cta=demo&SID=123")).not.toHaveProperty("sessionId");
  });

  it("keeps the session apart from the campaign and the target", () => {
    expect(thankYou("cta=whatsapp&source=ig&sid=1732480000")).toEqual({
      cta: "whatsapp",
      campaign: { source: "ig" },
      sessionId: "1732480000",
      target: WA_DEFAULT,
      returnUrl: "/",
    });
  });
});

describe("readThankYou: the variant shown and the button's placement", () => {
  it("carries the variant as the link had it, for the lead's check, and none without one", () => {
    expect(thankYou("cta=email&exp=DRB-hero_headline-control").variant).toBe(
      "DRB-hero_headline-control",
    );
    expect(thankYou("cta=email&exp=junk").variant).toBe("junk");
    expect(thankYou("cta=email")).not.toHaveProperty("variant");
  });

  it("cuts nothing long through: a variant past two ids' length is none the check can read", () => {
    expect(thankYou(`cta=email&exp=DRB-hero_headline-${"x".repeat(500)}`).variant).toBe("");
  });

  it.each(["hero", "sticky", "plan-pro", "not-found", "get-started", "a".repeat(40)])(
    "takes pl=%s",
    (placement) => {
      expect(thankYou(`cta=whatsapp&pl=${placement}`).placement).toBe(placement);
    },
  );

  it.each(["", "Hero", "hero bar", "hero_bar", "<script>", "a".repeat(41), "%0Ahero", "h%C3%A9ro"])(
    "leaves out pl=%j",
    (placement) => {
      expect(thankYou(`cta=whatsapp&pl=${placement}`)).not.toHaveProperty("placement");
    },
  );
});

describe("safeReturnUrl", () => {
  const REFUSED = [
    "//evil.example",
    "//evil.example/share",
    "///evil.example",
    "////evil.example",
    "/\\evil.example",
    "\\/evil.example",
    "\\\\evil.example",
    "/\\/evil.example",
    "/%2F%2Fevil.example",
    "/%2f%2fevil.example",
    "/%2F/evil.example",
    "/%5Cevil.example",
    "/%5c%5cevil.example",
    "%2F%2Fevil",
    "%2Fshare",
    "https://evil.example",
    "https://darb.ae/share",
    "http:/evil.example",
    "javascript:alert(1)",
    "data:text/html,x",
    "evil.example",
    "share",
    "?x=1",
    "#plans",
    "/%0d%0aSet-Cookie:x",
    "/%0ASet-Cookie:x",
    "/\t/evil.example",
    "/\\t/evil.example",
    "/%09/evil.example",
    "/\n/evil.example",
    "/sh\rare",
    "/share\u0000",
    "/%00",
    "/share\u007f",
    "/share\u0085",
    "/%C2%85",
    "/share\u00a0",
    "/%C2%A0share",
    " /share",
    "/share ",
    "/sh are",
    "/share?q=a b",
    "/share#a b",
    "/\u200b/evil.example",
    "/%E2%80%8B",
    "/\u202e",
    "/%E2%80%AE",
    "/%E2%81%A0",
    "/\u2066x",
    "/\ufeff",
    "/thank-you",
    "/thank-you/",
    "/thank-you/x",
    "/thank-you?cta=whatsapp",
    "/thank-you#x",
    "/./thank-you",
    "/share/../thank-you?cta=demo",
    "/THANK-YOU",
    "/ar/thank-you",
    "/AR/Thank-You",
    "/ar/thank-you/",
    "/ar/thank-you?cta=demo&source=again",
    "/ar/./thank-you",
    "/%61r/thank-you",
    "/ar/thank%2Dyou",
    "/%E0%A4%A",
    "/%",
    "/50%",
    "/share?x=%",
    "/%ZZ",
    `/${"a".repeat(512)}`,
    "",
  ];
  it.each(REFUSED)("refuses %j", (raw) => {
    expect(safeReturnUrl(raw)).toBe("/");
  });

  it.each(REFUSED)("readThankYou refuses %j in both forms", (raw) => {
    expect(thankYou(`cta=whatsapp&returnUrl=${encodeURIComponent(raw)}`).returnUrl).toBe("/");
    const decoded = thankYou(`cta=whatsapp&returnUrl=${raw}`).returnUrl;
    expect(returnUrlProblem(decoded)).toBeNull();
  });

  it("refuses a missing returnUrl", () => {
    expect(safeReturnUrl(null)).toBe("/");
    expect(thankYou("cta=whatsapp").returnUrl).toBe("/");
  });

  it.each([
    ["/", "/"],
    ["/share", "/share"],
    ["/sitemap?x=1#faq", "/sitemap?x=1#faq"],
    ["/#plans", "/#plans"],
    ["/share?source=ig&x=a-b", "/share?source=ig&x=a-b"],
    ["/pricing/", "/pricing/"],
    ["/thank-your-driver", "/thank-your-driver"],
    ["/thank-youx", "/thank-youx"],
    ["/a//b", "/a//b"],
    ["/share/../pricing", "/pricing"],
    ["/share?q=<x>", "/share?q=%3Cx%3E"],
    ["/caf\u00e9", "/caf%C3%A9"],
    ["/caf%C3%A9", "/caf%C3%A9"],
    ["/share?next=//evil.example", "/share?next=//evil.example"],
    [`/${"a".repeat(511)}`, `/${"a".repeat(511)}`],
  ])("keeps %j as %j", (raw, expected) => {
    expect(safeReturnUrl(raw)).toBe(expected);
    expect(thankYou(`cta=demo&returnUrl=${encodeURIComponent(raw)}`).returnUrl).toBe(expected);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

const NUM_RUNS = 2000;

const SCHEMES = [
  "https:",
  "HTTPS:",
  "http:",
  "javascript:",
  "data:",
  "mailto:",
  "ftp:",
  "whatsapp:",
  "%68ttps:",
  "https%3A",
  "",
];
const SEPARATORS = [
  "//",
  "/",
  "///",
  "\\\\",
  "\\",
  "",
  "@",
  ".",
  "%2e",
  "%2E",
  "%40",
  "%2F",
  "%5C",
  ":",
  "#",
  "?",
  "&",
  " ",
  "\t",
  "\n",
  "\r",
  "\u0000",
  "\u00a0",
  "\u00ad",
  "\u200b",
  "\u202e",
  "\ufeff",
  "%00",
  "%0a",
  "%E2%80%8B",
];
const HOSTS = [
  "wa.me",
  "WA.ME",
  "wa.me.",
  "w\u0430.me",
  "api.whatsapp.com",
  "demo.darb.ae",
  "darb.ae",
  "evil.example",
  "wa.me.evil.example",
  "evil.example/wa.me",
  "127.0.0.1",
  "[::1]",
  "wa.me:443",
  "wa.me:444",
  "user:pass@wa.me",
];
const PATHS = [
  "/971585550134",
  "971585550134",
  "/971585550135",
  "/9715855501345",
  "/send?phone=971585550134",
  "/send?phone=971585550135",
  "?phone=971585550134",
  "&phone=971585550134",
  "?text=hi",
  "&text=%00",
  "/",
  "/drive",
  "/demo",
  "/@evil.example",
  "#x",
  "",
];
const REDIRECT_FRAGMENTS = [...SCHEMES, ...SEPARATORS, ...HOSTS, ...PATHS];

/** scheme + separator + host + separator + host + path, each part possibly a look-alike. */
const structuredRedirect = fc
  .tuple(
    fc.constantFrom(...SCHEMES),
    fc.constantFrom(...SEPARATORS),
    fc.constantFrom(...HOSTS),
    fc.constantFrom(...SEPARATORS),
    fc.constantFrom(...HOSTS, ""),
    fc.constantFrom(...PATHS),
  )
  .map((parts) => parts.join(""));

/** Any sequence of those fragments. */
const fragmentSoup = fc
  .array(fc.constantFrom(...REDIRECT_FRAGMENTS), { maxLength: 12 })
  .map((parts) => parts.join(""));

/** A valid link with one dangerous character or fragment dropped in somewhere. */
const VALID_LINKS = [
  WA,
  `${WA}?text=Hello`,
  "https://api.whatsapp.com/send?phone=971585550134&text=Hi",
  DEMO,
  "https://demo.darb.ae/drive?step=2",
];
const mutatedValid = fc
  .tuple(fc.constantFrom(...VALID_LINKS), fc.nat(), fc.constantFrom(...SEPARATORS, ...HOSTS))
  .map(([link, at, insert]) => {
    const index = at % (link.length + 1);
    return `${link.slice(0, index)}${insert}${link.slice(index)}`;
  });

const anyRedirect = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.webUrl(),
  fc.webUrl({
    validSchemes: ["https", "http", "ftp"],
    withQueryParameters: true,
    withFragments: true,
    authoritySettings: { withIPv4: true, withIPv6: true, withPort: true, withUserInfo: true },
  }),
  structuredRedirect,
  fragmentSoup,
  mutatedValid,
);

// Dot segments are in the soup: the parser resolves them after the raw checks, which once let
// "/.//evil.example" out as "//evil.example".
const RETURN_FRAGMENTS = [
  ".",
  "..",
  "%2e",
  "%2E%2E",
  "/",
  "//",
  "\\",
  "%2F",
  "%2f",
  "%5C",
  "%25",
  "%",
  "%E0%A4%A",
  "%0a",
  "%0D",
  "%09",
  "%00",
  "%E2%80%8B",
  "\t",
  "\n",
  " ",
  "\u0000",
  "\u200b",
  "\u202e",
  "evil.example",
  "share",
  "thank-you",
  "a",
  "?",
  "#",
  "=",
  "&",
  "@",
  ":",
  "https:",
  "javascript:",
];
const returnSoup = fc
  .array(fc.constantFrom(...RETURN_FRAGMENTS), { maxLength: 10 })
  .map((parts) => parts.join(""));

const RETURN_SEGMENTS = [
  "",
  "share",
  "thank-you",
  "evil.example",
  "%2F",
  "%5C",
  "%2F%2Fevil.example",
  "\\",
  "a?b=/",
  "#/",
  "@evil.example",
  "https:",
];
/** Paths built segment by segment, so empty segments ("//") land anywhere. */
const segmentPath = fc
  .array(fc.constantFrom(...RETURN_SEGMENTS), { minLength: 1, maxLength: 6 })
  .map((segments) => `/${segments.join("/")}`);

const anyReturnUrl = fc.oneof(
  segmentPath,
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  returnSoup,
  fc.string().map((s) => `/${s}`),
  returnSoup.map((s) => `/${s}`),
);

/** DRB in any letter case, a dash, a space or nothing, and five characters in any case. */
const ref = fc
  .tuple(
    fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    fc.constantFrom("-", " ", "", "\t", "\n", "\u00a0"),
    fc.array(fc.constantFrom(...REF_ALPHABET, ...REF_ALPHABET.toLowerCase()), {
      minLength: 5,
      maxLength: 5,
    }),
  )
  .map(
    ([upper, separator, characters]) =>
      `${[..."drb"].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join("")}${separator}${characters.join("")}`,
  );
/** Almost a reference: a look-alike, a character short or over, another separator. */
const nearRef = fc
  .tuple(ref, fc.constantFrom("O", "1", "l", "", "K2", "_", "--"), fc.integer({ min: 3, max: 9 }))
  .map(([whole, insert, at]) => `${whole.slice(0, at)}${insert}${whole.slice(at + 1)}`);
/** Words, references and near-references, glued or apart: what a crafted link's text holds. */
const prefilledText = fc
  .array(
    fc.oneof(
      ref,
      nearRef,
      fc.constantFrom(" ", "\n", ".", "Ref ", "المرجع ", "x", "7", "DRB", "-"),
      fc.string({ maxLength: 8 }),
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(""));
const WHATSAPP_PREFIXES = [`${WA}?text=`, "https://api.whatsapp.com/send?phone=971585550134&text="];

const anyCta = fc.constantFrom<CtaType>(...CTAS);
/** C0, DEL, C1 and the bidi embeddings, overrides and isolates: what no campaign word keeps. */
function hasUnwanted(value: string): boolean {
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code <= 0x1f || (code >= 0x7f && code <= 0x9f)) return true;
    // The invisible format characters shared/campaign.ts removes: ALM, zero-width and bidi marks,
    // embeddings and overrides, the word joiner and invisible operators, isolates, the BOM.
    if (
      code === 0x061c ||
      (code >= 0x200b && code <= 0x200f) ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2060 && code <= 0x206f) ||
      code === 0xfeff
    )
      return true;
  }
  return false;
}

/** Why a campaign read off a lead link is not clean, or null when it is. */
function campaignProblem(campaign: Campaign): string | null {
  for (const [name, value] of Object.entries(campaign)) {
    if (!(CAMPAIGN_PARAMS as readonly string[]).includes(name)) return `unknown name ${name}`;
    if (typeof value !== "string" || value === "") return `empty ${name}`;
    const max = (CLICK_IDS as readonly string[]).includes(name) ? 500 : 100;
    if (value.length > max) return `${name} longer than ${max}`;
    if (hasUnwanted(value)) return `control character in ${name}`;
    if (value !== value.trim() || /\s\s/u.test(value)) return `unfolded white space in ${name}`;
  }
  return null;
}

describe("properties", () => {
  it("safeRedirect returns null or an on-site link for every CTA", () => {
    fc.assert(
      fc.property(anyRedirect, (raw) => {
        for (const cta of CTAS) {
          check(redirectProblem(cta, safeRedirect(raw, cta, targets)), cta, raw);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("readThankYou targets are the default or an on-site link for every CTA", () => {
    fc.assert(
      fc.property(anyRedirect, (raw) => {
        for (const cta of CTAS) {
          const result = readThankYou(new URLSearchParams({ cta, redirect: raw }), targets);
          check(result.cta === cta ? null : "lost the cta", cta, raw);
          check(targetProblem(cta, result.target), cta, raw);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("readThankYou targets stay on-site when the redirect is pasted into the query string", () => {
    fc.assert(
      fc.property(anyCta, anyRedirect, (cta, raw) => {
        const result = thankYou(`cta=${cta}&redirect=${raw}`);
        check(result.cta === cta ? null : "lost the cta", cta, raw);
        check(targetProblem(cta, result.target), cta, raw);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("a WhatsApp link to any other number is refused", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\+?[0-9]{1,16}$/).filter((n) => n !== targets.whatsappNumber),
        fc.constantFrom("https://wa.me/", "https://api.whatsapp.com/send?phone="),
        (number, prefix) => {
          const raw = `${prefix}${number}`;
          expect(safeRedirect(raw, "whatsapp", targets)).toBeNull();
          expect(safeRedirect(raw, "link", targets)).toBeNull();
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it("any prefilled text is re-encoded onto our own number", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), (text) => {
        const raw = `${WA}?text=${encodeURIComponent(text)}`;
        const expected = text ? `${WA}?text=${encodeURIComponent(text)}` : WA;
        const refused = text.length > 500 || refInText(text) !== null;
        expect(safeRedirect(raw, "whatsapp", targets)).toBe(refused ? null : expected);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("a prefilled text with anything read as a reference is refused, for the CTA's default", () => {
    fc.assert(
      fc.property(prefilledText, fc.constantFrom(...WHATSAPP_PREFIXES), (text, prefix) => {
        const raw = `${prefix}${encodeURIComponent(text)}`;
        const quotes = refInText(text) !== null;
        for (const cta of ["whatsapp", "link"] as const) {
          const result = safeRedirect(raw, cta, targets);
          if (quotes) check(result === null ? null : "followed a text quoting a reference", raw);
          // What is followed quotes none.
          const followed = result === null ? "" : (new URL(result).searchParams.get("text") ?? "");
          check(refInText(followed) === null ? null : "a reference got through", raw, result);
          const { target } = readThankYou(new URLSearchParams({ cta, redirect: raw }), targets);
          if (quotes) check(target === FALLBACK[cta] ? null : "not the default", raw, target);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("a reference set apart by a space or a line is always read, so always refused", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        ref,
        fc.string({ maxLength: 40 }),
        (a, quoted, b) => {
          const text = `${a} ${quoted}\n${b}`;
          expect(refInText(text)).not.toBeNull();
          expect(
            safeRedirect(`${WA}?text=${encodeURIComponent(text)}`, "whatsapp", targets),
          ).toBeNull();
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it("a DEMO_URL with a path only lets links at or below that path through", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.webPath(), fc.string(), returnSoup),
        fc.webQueryParameters(),
        (path, query) => {
          const raw = `https://darb.ae${path}?${query}`;
          const result = safeRedirect(raw, "demo", pathDemoTargets);
          if (result === null) return;
          const url = new URL(result);
          expect(url.origin).toBe("https://darb.ae");
          expect(url.pathname === "/demo" || url.pathname.startsWith("/demo/")).toBe(true);
          expect(result.startsWith("https://darb.ae/demo")).toBe(true);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it("safeReturnUrl always yields a same-origin path", () => {
    fc.assert(
      fc.property(anyReturnUrl, (raw) => {
        check(returnUrlProblem(safeReturnUrl(raw)), raw);
        const { returnUrl } = readThankYou(new URLSearchParams({ returnUrl: raw }), targets);
        check(returnUrlProblem(returnUrl), raw);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("the campaign is always clean, and its words are kept as written", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CAMPAIGN_PARAMS),
        fc.oneof(fc.string(), fc.string({ unit: "binary" })),
        (name, raw) => {
          const { campaign } = readThankYou(new URLSearchParams({ [name]: raw }), targets);
          check(campaignProblem(campaign), name, raw);
          // A plain word comes through exactly, letter case and all.
          if (raw.length > 0 && raw.length <= 100 && !/\s/u.test(raw) && !hasUnwanted(raw)) {
            check(campaign[name] === raw ? null : `changed ${name}`, raw, campaign);
          }
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  const KEYS = ["cta", "redirect", "source", "utm_campaign", "gclid", "sid", "x", "", "cta[]"];
  // returnUrl only gets the dot-free values (see RETURN_FRAGMENTS); every other key gets anything.
  const pair = fc
    .oneof(
      fc.tuple(
        fc.constantFrom(...KEYS),
        fc.oneof(fc.constantFrom<string>(...CTAS), anyRedirect, returnSoup, fc.string()),
      ),
      fc.tuple(fc.constant("returnUrl"), anyReturnUrl),
    )
    .map(([key, value]) => `${key}=${value}`);
  const anyQuery = fc.oneof(
    fc.string(),
    fc.string({ unit: "binary" }),
    fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.join("&")),
    fc.array(pair, { maxLength: 6 }).map((pairs) => `?${pairs.join("&")}`),
  );

  it("readThankYou never throws and always returns a well-formed, safe result", () => {
    fc.assert(
      fc.property(anyQuery, (query) => {
        const result = readThankYou(new URLSearchParams(query), targets);
        if (result.cta === null) check(result.target === null ? null : "target without cta", query);
        else check(targetProblem(result.cta, result.target), query);
        check(CTAS.includes(result.cta ?? "email") ? null : "unknown cta", query);
        check(campaignProblem(result.campaign), query);
        if (result.sessionId !== undefined) {
          check(/^[0-9]{1,20}$/.test(result.sessionId) ? null : "bad session", query);
        }
        check(returnUrlProblem(result.returnUrl), query);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe("safeReturnUrl after the parser resolves dot segments", () => {
  it.each([
    "/.//evil.example",
    "/%2e//evil.example",
    "/..//evil.example",
    "/share/..//evil.example",
    "/%2E%2E//evil.example/x?y#z",
    "/./%2F%2Fevil.example/.",
    "/THANK-YOU?cta=whatsapp",
    "/%74hank-you",
  ])("refuses %j", (raw) => {
    expect(safeReturnUrl(raw)).toBe("/");
    const search = new URLSearchParams({ cta: "whatsapp", returnUrl: raw });
    expect(readThankYou(search, targets).returnUrl).toBe("/");
  });
});

describe("readThankYou: a plan's lead", () => {
  const planTargets: Targets = {
    ...targets,
    planMessages: {
      basic: "Hi Darb! Basic please.",
      plus: "Hi Darb! I'd like the Plus plan.",
      pro: "Hi Darb! I'd like the Pro plan.",
    },
  };
  const plan = (query: string) => thankYou(query, planTargets);
  const chat = (text: string) => `${WA}?text=${encodeURIComponent(text)}`;

  it("opens WhatsApp with the plan's own message, from the server", () => {
    expect(plan("cta=whatsapp&plan=pro&source=x")).toMatchObject({
      cta: "whatsapp",
      plan: "pro",
      campaign: { source: "x" },
      target: chat("Hi Darb! I'd like the Pro plan."),
    });
    expect(plan("cta=whatsapp&plan=plus").target).toBe(chat("Hi Darb! I'd like the Plus plan."));
  });

  it("takes the plan's message over whatever text the redirect carried", () => {
    const redirect = encodeURIComponent(`${WA}?text=${encodeURIComponent("Send me money")}`);
    expect(plan(`cta=whatsapp&plan=pro&redirect=${redirect}`).target).toBe(
      chat("Hi Darb! I'd like the Pro plan."),
    );
    // And never another number or host, plan or not.
    const elsewhere = encodeURIComponent("https://wa.me/15550001111?text=hi");
    expect(plan(`cta=whatsapp&plan=pro&redirect=${elsewhere}`).target).toBe(
      chat("Hi Darb! I'd like the Pro plan."),
    );
    expect(plan("cta=whatsapp&plan=pro&redirect=https%3A%2F%2Fevil.example%2F").target).toBe(
      chat("Hi Darb! I'd like the Pro plan."),
    );
  });

  it.each(["evil", "PRO", "pro%20", "", "__proto__", "https%3A%2F%2Fevil.example"])(
    "ignores plan=%s: no plan, the usual target",
    (raw) => {
      const result = plan(`cta=whatsapp&plan=${raw}&source=x`);
      expect(result.plan).toBeUndefined();
      expect(result.target).toBe(WA_DEFAULT);
    },
  );

  it("keeps the plan of another CTA for the lead but leaves its target alone", () => {
    expect(plan("cta=demo&plan=pro")).toMatchObject({ plan: "pro", target: DEMO });
    expect(plan("cta=email&plan=plus")).toMatchObject({ plan: "plus", target: MAILTO });
  });

  it("has no plan without a CTA, and falls back when no messages are configured", () => {
    expect(plan("plan=pro").plan).toBeUndefined();
    expect(thankYou("cta=whatsapp&plan=pro").target).toBe(WA_DEFAULT);
  });
});
