// Experiments over real HTTP: the built server with the shipped two-variant experiment file (50/50
// on the hero's headline), visitors from distinct loopback addresses on one phone model, and a
// GA4 stand-in. What a visitor sees, what GA4 and the ledger get, and what the control keeps.
// How a lead is counted for the variant its page showed: experiments-exposure.test.ts.

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Experiment } from "~/shared/experiment";
import {
  type ChildServer,
  freshDataDir,
  ROOT,
  sleep,
  startChildServer,
} from "../support/child-server";
import { type Destinations, gaEvents, startDestinations } from "../support/destinations";
import { phoneNavigation } from "../support/raw-http";
import { GOOGLEBOT, WHATSAPP_PREVIEW } from "../support/user-agents";
import { APP_SECRET, delivery, postToWebhook, signed } from "../support/whatsapp-webhook";

const EXAMPLE = "experiments.example.json";
const [experiment] = (
  JSON.parse(readFileSync(join(ROOT, EXAMPLE), "utf8")) as {
    experiments: Experiment[];
  }
).experiments as [Experiment];
const CONTROL = "Drive Dubai safer. Get up to 25% back on insurance.";
const VARIANT = experiment.variants[1]?.copy["hero.headline"] as { en: string; ar: string };
const VISITORS = 40;

/** Visitor n's own loopback address: 127.0.1.n, one phone model for all. */
const address = (n: number) => `127.0.1.${n + 1}`;

let destinations: Destinations;
/** Where the site with the experiment keeps its ledger, for `npm run experiments`. */
const dataDir = freshDataDir();
let site: ChildServer;
/** The server without an experiments file, for what the control must keep. */
let plain: ChildServer;

async function page(
  server: ChildServer,
  path: string,
  n: number,
  headers: Record<string, string> = {},
) {
  const answer = await phoneNavigation(server.origin, path, address(n), headers);
  expect(answer.status).toBe(200);
  return answer.body;
}

/** The hero's headline, as the HTML has it (React escapes nothing in these words). */
const headline = (html: string) => /<h1 id="hero-heading"[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];
const canonical = (html: string) => /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1];

/** The page's lead links (every link to /thank-you), as URLs. */
const leadLinks = (html: string) =>
  [...html.matchAll(/href="(\/(?:ar\/)?thank-you\?[^"]*)"/g)].map(
    ([, href]) => new URL((href ?? "").replaceAll("&amp;", "&"), "http://site.test"),
  );

/** The page's no-JS view image, as a URL. */
function viewImage(html: string): URL | undefined {
  const src = /<noscript><img src="([^"]*)"/.exec(html)?.[1];
  return src === undefined ? undefined : new URL(src.replaceAll("&amp;", "&"), "http://site.test");
}

/** A page without the name of the variant it shows: on its links, its image and in its data. */
const unnamed = (html: string, variant: string) =>
  html
    .replaceAll(`&amp;exp=DRB-hero_headline-${variant}`, "")
    .replaceAll(`,"exp":"DRB-hero_headline-${variant}"`, "");

/** What changes between two renders of one page: the nonce, and the moment it was rendered. */
const settled = (html: string) =>
  html.replace(/nonce="[^"]*"/g, 'nonce=""').replace(/"renderedAt":\d+/g, '"renderedAt":0');

async function until<T>(read: () => T | undefined, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await sleep(50);
  }
}

const impressions = () => gaEvents(destinations.ga, "experience_impression");

beforeAll(async () => {
  destinations = await startDestinations();
  const ga = {
    GA_MEASUREMENT_ID: "G-TEST12345",
    GA_API_SECRET: "test_secret_1",
    GA_MP_ENDPOINT: destinations.gaEndpoint,
    META_PIXEL_ID: "123456789012345",
    META_ACCESS_TOKEN: "EAAB_test_token_0123456789",
    META_CAPI_ENDPOINT: destinations.metaEndpoint,
    WHATSAPP_VERIFY_TOKEN: "experiments-verify-token",
    WHATSAPP_APP_SECRET: APP_SECRET,
    // No proxy in front: each visitor is the connection's own address.
    TRUST_PROXY: "0",
  };
  [site, plain] = await Promise.all([
    startChildServer({ ...ga, EXPERIMENTS_FILE: EXAMPLE, DATA_DIR: dataDir }),
    startChildServer(ga),
  ]);
});

afterAll(async () => {
  await Promise.all([site?.kill(), plain?.kill()]);
  await destinations?.close();
});

describe("a 50/50 test of the hero's headline", { timeout: 120_000 }, () => {
  /** Each visitor's headline on their first view. */
  const seen: string[] = [];

  it("shows forty visitors on distinct addresses both variants, about evenly, in the HTML", async () => {
    for (let n = 0; n < VISITORS; n++) seen.push(headline(await page(site, "/", n)) ?? "");
    expect(new Set(seen)).toEqual(new Set([CONTROL, VARIANT.en]));
    // Binomial(40, 1/2): outside 8–32 once in ~10,000 runs.
    const variants = seen.filter((text) => text === VARIANT.en).length;
    expect(variants).toBeGreaterThanOrEqual(8);
    expect(variants).toBeLessThanOrEqual(32);
  });

  it("shows each visitor the same variant on reload, and in Arabic on /ar", async () => {
    for (let n = 0; n < VISITORS; n++) {
      expect(headline(await page(site, "/", n))).toBe(seen[n]);
      const arabic = headline(await page(site, "/ar", n));
      expect(arabic).toBe(seen[n] === CONTROL ? headline(await page(plain, "/ar", n)) : VARIANT.ar);
    }
  });

  it("names each visitor's variant on every lead link and in its no-JS image, and tells GA4 nothing at render", async () => {
    for (let n = 0; n < VISITORS; n++) {
      const html = await page(site, "/", n);
      const token = `DRB-hero_headline-${seen[n] === CONTROL ? "control" : "cashback_first"}`;
      const links = leadLinks(html);
      expect(links.length).toBeGreaterThan(10);
      for (const link of links) {
        expect(link.searchParams.get("exp"), link.href).toBe(token);
        expect(link.searchParams.get("pl"), link.href).toMatch(/^[a-z0-9-]{1,40}$/);
      }
      expect(viewImage(html)?.searchParams.get("exp")).toBe(token);
    }
    // The browser sends experience_impression on its own session (hooks/use-visit.ts), and a
    // page without JavaScript with its view (routes/api.view.ts): the render sends none.
    await sleep(800);
    expect(impressions()).toEqual([]);
  });

  /** Each leading visitor's chat reference, by visitor. */
  const refs = new Map<number, string>();

  it("counts each visitor's lead for the variant their page's link carried", async () => {
    for (const n of [0, 1, 2, 3, 4, 5]) {
      const html = await page(site, "/?source=instagram", n);
      const hero = leadLinks(html).find((link) => link.searchParams.get("pl") === "hero");
      expect(hero, "the hero's lead link").toBeDefined();
      const lead = await phoneNavigation(
        site.origin,
        `${hero?.pathname}${hero?.search}`,
        address(n),
      );
      expect(lead.status).toBe(200);
      refs.set(n, /Ref%20(DRB-[2-9A-Z]{5})/.exec(lead.body)?.[1] ?? "");
    }
    const leads = await until(() => {
      const found = gaEvents(destinations.ga, "generate_lead");
      return found.length >= 6 ? found : undefined;
    }, "six leads");
    const expected = [0, 1, 2, 3, 4, 5].map(
      (n) => `DRB-hero_headline-${seen[n] === CONTROL ? "control" : "cashback_first"}`,
    );
    expect(leads.map((lead) => lead.params.exp_variant_string).sort()).toEqual(expected.sort());
    expect(new Set(leads.map((lead) => lead.params.placement))).toEqual(new Set(["hero"]));
    // Meta's Lead for each carries it too, beside the lead's own words.
    const metaLeads = await until(() => {
      const found = destinations.meta.filter((event) => event.event_name === "Lead");
      return found.length >= 6 ? found : undefined;
    }, "six leads at Meta");
    expect(new Set(metaLeads.map((event) => event.custom_data?.exp_variant_string))).toEqual(
      new Set(leads.map((lead) => lead.params.exp_variant_string)),
    );
  });

  it("carries the lead's variant on the chat it starts: GA4's working_lead and Meta's event", async () => {
    const ref = refs.get(0) as string;
    expect(ref).toMatch(/^DRB-/);
    const body = delivery("wamid.experiments.1", `Hi Darb! I'd like the app.\n\nRef ${ref}`);
    const answer = await postToWebhook(site.origin, body, signed(body));
    expect(answer.status).toBe(200);
    const [working] = await until(() => {
      const found = gaEvents(destinations.ga, "working_lead");
      return found.length > 0 ? found : undefined;
    }, "working_lead");
    const expected = `DRB-hero_headline-${seen[0] === CONTROL ? "control" : "cashback_first"}`;
    expect(working?.params.exp_variant_string).toBe(expected);
    const chat = await until(
      () => destinations.meta.find((event) => event.event_name !== "Lead"),
      "the chat at Meta",
    );
    expect(chat.custom_data?.exp_variant_string).toBe(expected);
  });

  it("keeps the page for each variant apart: a kept page is never another variant's", async () => {
    // Visitors 0–39 have been answered from memory on reload; each saw their own above.
    for (let n = 0; n < 6; n++) expect(headline(await page(site, "/", n))).toBe(seen[n]);
  });

  it("shows crawlers, link previews, prefetches and Sec-GPC: 1 the control, and counts none", async () => {
    const before = impressions().length;
    // Visitors 50 and up are new: only these requests could count them.
    const asks: [number, Record<string, string>][] = [
      [50, { "user-agent": GOOGLEBOT }],
      [51, { "user-agent": WHATSAPP_PREVIEW }],
      [52, { "sec-purpose": "prefetch" }],
      [53, { "sec-gpc": "1" }],
    ];
    for (const [n, headers] of asks) {
      // Each is tried as many times as it takes a visitor to land in the variant at 50/50.
      for (let attempt = 0; attempt < 8; attempt++) {
        const html = await page(site, "/", n + attempt * 10, headers);
        expect(headline(html)).toBe(CONTROL);
      }
    }
    await sleep(800);
    expect(impressions()).toHaveLength(before);
  });

  it("names no variant on the page a crawler or Sec-GPC: 1 gets: its leads count for none", async () => {
    const asks: Record<string, string>[] = [{ "user-agent": GOOGLEBOT }, { "sec-gpc": "1" }];
    for (const headers of asks) {
      const html = await page(site, "/", 60, headers);
      for (const link of leadLinks(html)) expect(link.searchParams.has("exp")).toBe(false);
      expect(viewImage(html)?.searchParams.has("exp")).toBe(false);
    }
  });

  it("changes no canonical URL; the control's page is the page without an experiment but for the variant's name", async () => {
    const control = seen.indexOf(CONTROL);
    const variant = seen.indexOf(VARIANT.en);
    const [asControl, asVariant, asCrawler, crawlerWithoutFile, withoutFile] = await Promise.all([
      page(site, "/", control),
      page(site, "/", variant),
      page(site, "/", control, { "user-agent": GOOGLEBOT }),
      page(plain, "/", control, { "user-agent": GOOGLEBOT }),
      page(plain, "/", control),
    ]);
    expect(canonical(asVariant)).toBe(canonical(withoutFile));
    // Someone not taking part gets exactly the page without an experiment.
    expect(settled(asCrawler)).toBe(settled(crawlerWithoutFile));
    // The control's links, image and data name it, and nothing else differs.
    expect(settled(asControl)).toContain("exp=DRB-hero_headline-control");
    expect(unnamed(settled(asControl), "control")).toBe(settled(withoutFile));
    // Only the headline and the name differ for the variant.
    expect(unnamed(settled(asVariant), "cashback_first").replace(VARIANT.en, CONTROL)).toBe(
      settled(withoutFile),
    );
  });

  it("is reported by `npm run experiments`: both variants, their visitors and leads", async () => {
    const run = spawnSync("npm", ["run", "--silent", "experiments", "--", "--csv"], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "production",
        DATA_DIR: dataDir,
        EXPERIMENTS_FILE: EXAMPLE,
      },
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
    const [header, ...rows] = run.stdout
      .trim()
      .split("\r\n")
      .map((line) => line.split(","));
    const column = (name: string) => header?.indexOf(name) ?? -1;
    const row = (variant: string) => rows.find((cells) => cells[column("variant")] === variant);
    const variants = seen.filter((text) => text === VARIANT.en).length;
    // The forty visitors, counted once each however often they came back; crawlers and the
    // rest counted nowhere.
    expect(Number(row("control")?.[column("visitors")])).toBe(VISITORS - variants);
    expect(Number(row("cashback_first")?.[column("visitors")])).toBe(variants);
    const leads = [0, 1, 2, 3, 4, 5].map((n) =>
      seen[n] === CONTROL ? "control" : "cashback_first",
    );
    for (const variant of ["control", "cashback_first"]) {
      expect(Number(row(variant)?.[column("leads")])).toBe(
        leads.filter((name) => name === variant).length,
      );
    }
    // The last two columns (after notes, which may hold commas): none set aside.
    expect(row("control")?.slice(-2)).toEqual(["0", "0"]);
  });
});
