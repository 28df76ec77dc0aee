// Issue 28 over real HTTP: the built server with the shipped two-variant experiment file (50/50
// on the hero's headline), visitors from distinct loopback addresses on one phone model, and a
// GA4 stand-in. What a visitor sees, what GA4 and the ledger get, and what the control keeps.

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Experiment } from "~/experiments/experiment";
import {
  type ChildServer,
  freshDataDir,
  ROOT,
  sleep,
  startChildServer,
} from "../support/child-server";
import { type Destinations, gaEvents, startDestinations } from "../support/destinations";
import { rawRequest } from "../support/raw-http";
import { GOOGLEBOT, IPHONE_SAFARI_18, WHATSAPP_PREVIEW } from "../support/user-agents";
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
  const answer = await rawRequest(server.origin, path, {
    localAddress: address(n),
    agent: false,
    headers: { "user-agent": IPHONE_SAFARI_18, "sec-fetch-dest": "document", ...headers },
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

/** The hero's headline, as the HTML has it (React escapes nothing in these words). */
const headline = (html: string) => /<h1 id="hero-heading"[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];
const canonical = (html: string) => /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1];

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

  it("tells GA4 once per visitor and day, with exp_variant_string, and counts nothing twice", async () => {
    const all = await until(
      () => (impressions().length >= VISITORS ? impressions() : undefined),
      "an experience_impression per visitor",
    );
    // The reloads and /ar above added none.
    await sleep(500);
    expect(impressions()).toHaveLength(VISITORS);
    expect(new Set(all.map((event) => event.client_id)).size).toBe(VISITORS);
    const strings = all.map((event) => event.params.exp_variant_string);
    expect(new Set(strings)).toEqual(
      new Set(["DRB-hero_headline-control", "DRB-hero_headline-cashback_first"]),
    );
    expect(strings.filter((text) => text === "DRB-hero_headline-cashback_first")).toHaveLength(
      seen.filter((text) => text === VARIANT.en).length,
    );
  });

  /** Each leading visitor's chat reference, by visitor. */
  const refs = new Map<number, string>();

  it("carries each visitor's variant on their lead: the same as on their landing page", async () => {
    for (const n of [0, 1, 2, 3, 4, 5]) {
      const lead = await rawRequest(site.origin, "/thank-you?cta=whatsapp&source=instagram", {
        localAddress: address(n),
        agent: false,
        headers: { "user-agent": IPHONE_SAFARI_18, "sec-fetch-dest": "document" },
      });
      expect(lead.status).toBe(200);
      refs.set(n, /Ref%20(DRB-[2-9A-Z]{5})/.exec(lead.body)?.[1] ?? "");
    }
    const leads = await until(() => {
      const found = gaEvents(destinations.ga, "generate_lead");
      return found.length >= 6 ? found : undefined;
    }, "six leads");
    const byClient = new Map(impressions().map((event) => [event.client_id, event]));
    for (const lead of leads) {
      const impression = byClient.get(lead.client_id);
      expect(impression, "the lead's visitor was counted as exposed").toBeDefined();
      expect(lead.params.exp_variant_string).toBe(impression?.params.exp_variant_string);
    }
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

  it("changes no canonical URL, and the control's page is the page without an experiment", async () => {
    const control = seen.indexOf(CONTROL);
    const variant = seen.indexOf(VARIANT.en);
    const [asControl, asVariant, withoutFile] = await Promise.all([
      page(site, "/", control),
      page(site, "/", variant),
      page(plain, "/", control),
    ]);
    expect(canonical(asVariant)).toBe(canonical(withoutFile));
    expect(settled(asControl)).toBe(settled(withoutFile));
    // Only the headline differs for the variant.
    expect(settled(asVariant).replace(VARIANT.en, CONTROL)).toBe(settled(withoutFile));
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
      .split("\n")
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
  });
});
