// When the beta's link comes, as the production server's pages say it: in seconds, at any hour,
// only while the chat's automatic reply sends the link for either phone; within the hour, 8 am to
// 10 pm, otherwise. And the privacy notice names the reply only while it is on.
import { Window } from "happy-dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { legal as arLegal } from "~/content/ar/legal";
import { legal } from "~/content/legal";
import { type ChildServer, startChildServer } from "../support/child-server";
import { IPHONE_SAFARI_17 } from "../support/user-agents";

const REPLY = {
  WHATSAPP_VERIFY_TOKEN: "verify-token-1",
  WHATSAPP_APP_SECRET: "0123456789abcdef0123456789abcdef",
  WHATSAPP_ACCESS_TOKEN: "EAAG_system_user_token_0123456789",
  WHATSAPP_PHONE_NUMBER_ID: "106540352242922",
  // Never called here: no chat arrives.
  WHATSAPP_API_ENDPOINT: "http://127.0.0.1:9/v23.0",
};
const LINKS = {
  BETA_LINK_IOS: "https://testflight.apple.com/join/AbCdEf12",
  BETA_LINK_ANDROID: "https://play.google.com/apps/testing/ae.darb.app",
};

/** What each language's pages say in either case. */
const SAID = {
  en: { hour: "within the hour, 8 am to 10 pm", seconds: "in seconds" },
  ar: { hour: "خلال ساعة", seconds: "خلال ثوانٍ" },
} as const;

const window = new Window();
/** The defaults: no reply, so the team sends the link. */
let team: ChildServer;
/** The reply on, with a link for either phone. */
let instant: ChildServer;
/** The reply on without a link: it says when a person answers, so the page's promise holds. */
let noLinks: ChildServer;

beforeAll(async () => {
  [team, instant, noLinks] = await Promise.all([
    startChildServer({}),
    startChildServer({ ...REPLY, ...LINKS }),
    startChildServer(REPLY),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([team?.kill(), instant?.kill(), noLinks?.kill()]);
  await window.happyDOM.close();
});

async function page(server: ChildServer, path: string) {
  // Reading pages records nothing: a browser that asks not to be tracked.
  const response = await fetch(`${server.origin}${path}`, {
    headers: { "user-agent": IPHONE_SAFARI_17, "sec-gpc": "1" },
  });
  expect(response.status, path).toBe(200);
  return new window.DOMParser().parseFromString(await response.text(), "text/html");
}

type Parsed = Awaited<ReturnType<typeof page>>;

const hashed = (template: string) => template.replace("{hash}", "SHA-256");

/** The text a reader sees in an element, whitespace collapsed. */
const seen = (document: Parsed, selector: string) =>
  (document.querySelector(selector)?.textContent ?? "").replace(/\s+/g, " ").trim();

/** The landing page's three places that could say when: under the main action, step 1, the FAQ. */
async function landingWords(server: ChildServer, path: string) {
  const document = await page(server, path);
  return {
    hero: seen(document, "#hero-next"),
    step: seen(document, "#how-it-works li"),
    faq: seen(document, "#faq"),
    main: seen(document, "main"),
  };
}

describe("when the beta's link comes", () => {
  it.each([
    ["/", "en"],
    ["/ar", "ar"],
  ] as const)(
    "%s says within the hour without the reply, in seconds with it, and again from the cache",
    async (path, locale) => {
      const said = SAID[locale];
      for (const server of [team, noLinks]) {
        const words = await landingWords(server, path);
        expect(words.hero).toContain(said.hour);
        expect(words.step).toContain(said.hour);
        expect(words.main).not.toContain(said.seconds);
      }
      // The second request is answered from the render cache: the same words.
      for (const _ of [1, 2]) {
        const words = await landingWords(instant, path);
        expect(words.hero).toContain(said.seconds);
        expect(words.step).toContain(said.seconds);
        expect(words.main).not.toContain(said.hour);
        // The FAQ promises no time either way.
        expect(words.faq).not.toContain(said.hour);
      }
    },
  );

  it.each([
    ["/terms", "en"],
    ["/ar/terms", "ar"],
  ] as const)(
    "%s says the same: WhatsApp in seconds only with the reply, e-mail within the hour",
    async (path, locale) => {
      const words = (locale === "en" ? legal : arLegal).terms.beta;
      for (const server of [team, noLinks]) {
        const text = seen(await page(server, path), "#beta");
        expect(text).toContain(words.ask);
        expect(text).not.toContain(SAID[locale].seconds);
      }
      const text = seen(await page(instant, path), "#beta");
      expect(text).toContain(words.askInstant);
      expect(text).toContain(SAID[locale].seconds);
    },
  );
});

describe("the privacy notice", () => {
  it.each([
    ["/privacy", "en"],
    ["/ar/privacy", "ar"],
  ] as const)(
    "%s names the automatic reply, and the number kept encrypted for it, only while it is on",
    async (path, locale) => {
      const words = (locale === "en" ? legal : arLegal).privacy;
      const off = await page(team, path);
      expect(seen(off, "#chat")).not.toContain(words.chat.webhook);
      expect(off.querySelector("#whatsapp")).toBeNull();
      expect(seen(off, "main")).not.toContain(words.services.whatsapp.heading);
      for (const server of [instant, noLinks]) {
        const on = await page(server, path);
        expect(seen(on, "#whatsapp")).toContain(words.services.whatsapp.heading);
        expect(seen(on, "#whatsapp")).toContain(words.services.whatsapp.chat);
        const chat = seen(on, "#chat");
        expect(chat).toContain(words.chat.webhook);
        expect(chat).toContain(hashed(words.chat.numberReplying));
        expect(chat).not.toContain(hashed(words.chat.number));
      }
    },
  );
});
