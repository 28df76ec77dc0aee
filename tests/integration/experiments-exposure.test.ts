// A lead counts for the variant its visitor saw, and only then, over real HTTP: the
// built server with the shipped 50/50 headline test, visitors on distinct loopback addresses and
// one phone model, a GA4 stand-in, and `node server-build/experiments-report.js` on its ledger.
// Visitors who land on /share (no test there) and tap; visitors who land on / and tap from the
// same address; phones whose address changes between the two (Wi-Fi to 5G), each tapping where
// the new address would be given the other variant; and links naming a variant there is not.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assign } from "~/experiments/assignment.server";
import { visitorFor } from "~/leads/visitor.server";
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
import { IPHONE_SAFARI_18 } from "../support/user-agents";

const EXAMPLE = "experiments.example.json";
const [experiment] = (
  JSON.parse(readFileSync(join(ROOT, EXAMPLE), "utf8")) as { experiments: Experiment[] }
).experiments as [Experiment];
const VARIANT_HEADLINE = experiment.variants[1]?.copy["hero.headline"]?.en as string;
/** The child server's salt (tests/support/child-server.ts): the test works out assignments too. */
const SALT = "child-server-test-salt";
const REPORT = join(ROOT, "server-build/experiments-report.js");

let destinations: Destinations;
let site: ChildServer;
const dataDir = freshDataDir();

beforeAll(async () => {
  destinations = await startDestinations();
  site = await startChildServer({
    GA_MEASUREMENT_ID: "G-TEST12345",
    GA_API_SECRET: "test_secret_1",
    GA_MP_ENDPOINT: destinations.gaEndpoint,
    EXPERIMENTS_FILE: EXAMPLE,
    DATA_DIR: dataDir,
    // No proxy in front: each visitor is the connection's own address.
    TRUST_PROXY: "0",
  });
});

afterAll(async () => {
  await site?.kill();
  await destinations?.close();
});

/** A GET from `address` as a phone's own navigation. */
async function get(path: string, address: string) {
  const answer = await phoneNavigation(site.origin, path, address);
  expect(answer.status, path).toBe(200);
  return answer.body;
}

/** The page's first lead link to WhatsApp, from the `placement` named, as the page wrote it. */
function leadLink(html: string, placement: string): string {
  for (const [, href] of html.matchAll(/href="(\/thank-you\?[^"]*)"/g)) {
    const path = (href ?? "").replaceAll("&amp;", "&");
    const url = new URL(path, site.origin);
    if (url.searchParams.get("cta") === "whatsapp" && url.searchParams.get("pl") === placement) {
      return path;
    }
  }
  throw new Error(`no WhatsApp lead link from ${placement}`);
}

const variantSeen = (html: string) =>
  html.includes(`>${VARIANT_HEADLINE}</h1>`) ? "cashback_first" : "control";

/** The visitor id the server gives `address` on this phone today: GA4's client_id. */
const clientOf = (address: string) =>
  visitorFor({ address, userAgent: IPHONE_SAFARI_18 }, { salt: SALT }).clientId;

/** The variant the server would give `address` on this phone today. */
const assignedTo = (address: string) => assign(experiment, clientOf(address))?.variant;

/** What GA4's generate_lead of each tapping address said of the variant, once all arrived. */
async function variantsAtGa(addresses: string[]): Promise<(string | undefined)[]> {
  const clients = addresses.map(clientOf);
  for (let tries = 0; tries < 200; tries++) {
    const byClient = new Map(
      gaEvents(destinations.ga, "generate_lead").map((lead) => [lead.client_id, lead]),
    );
    if (clients.every((client) => byClient.has(client))) {
      return clients.map((client) => {
        const value = byClient.get(client)?.params.exp_variant_string;
        return value === undefined ? undefined : String(value);
      });
    }
    await sleep(50);
  }
  throw new Error("not every lead reached GA4");
}

const named = (variant: string) => `DRB-hero_headline-${variant}`;

/** `node server-build/experiments-report.js` on the site's ledger. */
const report = (args: string[]) =>
  spawnSync(process.execPath, [REPORT, ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      EXPERIMENTS_FILE: EXAMPLE,
    },
    encoding: "utf8",
  });

describe("a lead counts for the variant its visitor saw", { timeout: 120_000 }, () => {
  /** The variant each credited lead's visitor saw. */
  const credited: string[] = [];

  it("sets aside the leads of visitors who landed on /share, where no variant is shown", async () => {
    const addresses = Array.from({ length: 6 }, (_, n) => `127.0.5.${n + 1}`);
    for (const address of addresses) {
      const html = await get("/share", address);
      const tap = leadLink(html, "header");
      expect(new URL(tap, site.origin).searchParams.has("exp")).toBe(false);
      await get(tap, address);
    }
    expect(await variantsAtGa(addresses)).toEqual(addresses.map(() => undefined));
  });

  it("credits a visitor who lands on / and taps from the same address with the variant they saw", async () => {
    const addresses = Array.from({ length: 10 }, (_, n) => `127.0.6.${n + 1}`);
    const saw: string[] = [];
    for (const address of addresses) {
      const html = await get("/", address);
      saw.push(variantSeen(html));
      await get(leadLink(html, "hero"), address);
    }
    expect(new Set(saw).size, "both variants among ten visitors").toBe(2);
    expect(await variantsAtGa(addresses)).toEqual(saw.map(named));
    credited.push(...saw);
  });

  it("credits a phone whose address changed before the tap with what it saw, not what the new address gets", async () => {
    const tappers: string[] = [];
    const saw: string[] = [];
    const pool = Array.from({ length: 200 }, (_, i) => `127.0.8.${i + 1}`);
    for (let n = 1; saw.length < 8 && n < 200; n++) {
      const landing = `127.0.7.${n}`;
      const seenThen = assignedTo(landing) as string;
      // A new address the server would give the other variant: the case that went wrong.
      const tapping = pool.find((candidate) => assignedTo(candidate) !== seenThen);
      if (!tapping) continue;
      pool.splice(pool.indexOf(tapping), 1);
      const html = await get("/", landing);
      expect(variantSeen(html)).toBe(seenThen);
      await get(leadLink(html, "sticky"), tapping);
      tappers.push(tapping);
      saw.push(seenThen);
    }
    expect(saw).toHaveLength(8);
    expect(new Set(saw).size, "both variants among eight phones").toBe(2);
    expect(await variantsAtGa(tappers)).toEqual(saw.map(named));
    const tapping = new Set(tappers.map(clientOf));
    const placements = gaEvents(destinations.ga, "generate_lead")
      .filter((lead) => tapping.has(lead.client_id))
      .map((lead) => lead.params.placement);
    expect(new Set(placements)).toEqual(new Set(["sticky"]));
    credited.push(...saw);
  });

  it("sets aside, and never refuses, a link naming a variant the test does not have", async () => {
    const addresses: string[] = [];
    for (const [n, exp] of [
      [1, "DRB-hero_headline-removed"],
      [2, "DRB-old_test-control"],
      [3, "<script>alert(1)</script>"],
      [4, `DRB-hero_headline-${"x".repeat(3000)}`],
    ] as const) {
      const address = `127.0.9.${n}`;
      const body = await get(
        `/thank-you?cta=whatsapp&source=ig&exp=${encodeURIComponent(exp)}&pl=hero`,
        address,
      );
      expect(body).not.toContain("<script>alert(1)");
      addresses.push(address);
    }
    expect(await variantsAtGa(addresses)).toEqual(addresses.map(() => undefined));
  });

  it("is counted so by `npm run experiments`: each lead under the variant its visitor saw, and the rest set aside", async () => {
    const csv = report(["--csv"]);
    expect(csv.status, csv.stderr).toBe(0);
    const [header, ...rows] = csv.stdout.trim().split("\r\n");
    const columns = (header ?? "").split(",");
    const row = (variant: string) =>
      rows.find((line) => line.split(",")[2] === variant)?.split(",");
    const cell = (variant: string, name: string) => row(variant)?.[columns.indexOf(name)];
    for (const variant of ["control", "cashback_first"]) {
      const saw = credited.filter((name) => name === variant).length;
      expect(Number(cell(variant, "leads")), variant).toBe(saw);
      // Visitors: each landing on / once (ten, then eight); none for /share, none for a tap.
      expect(Number(cell(variant, "visitors")), variant).toBe(saw);
    }
    // Six with no variant shown (they landed on /share), four with one the test does not have.
    expect(row("control")?.slice(-2)).toEqual(["6", "4"]);

    const text = report([]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain("Set aside: 10 leads, counted toward no variant:");
    expect(text.stdout).toMatch(/^ {2}6 with no variant shown/m);
    expect(text.stdout).toMatch(/^ {2}4 with a variant this experiment does not have/m);
  });
});
