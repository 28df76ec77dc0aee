// deploy/alerts.yml held to what Prometheus makes of it: promtool checks the rules and runs
// deploy/alerts.test.yml (each alert firing and not), and a real server's /metrics carries what
// the rules read, from the start and in a form Prometheus accepts. The series the rules read are
// taken from the rules themselves, so the two cannot drift apart.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type ChildServer, freePort, ROOT, sleep, startChildServer } from "../support/child-server";
import { type Destinations, gaEvents, startDestinations } from "../support/destinations";
import { untilOwedNothing } from "../support/metrics-scrape";
import { IPHONE_SAFARI_18 } from "../support/user-agents";

const RULES = "deploy/alerts.yml";
const RULE_TESTS = "deploy/alerts.test.yml";

type Rule = {
  alert: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
};
type RuleTests = {
  tests: { alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[] }[];
};

const rules = (
  parse(readFileSync(join(ROOT, RULES), "utf8")) as { groups: { rules: Rule[] }[] }
).groups.flatMap((group) => group.rules);

/** promtool from PATH or Debian's place. Never a skip: without it the alerts go unchecked. */
function promtool(): string {
  const found = spawnSync("sh", ["-c", "command -v promtool"], { encoding: "utf8" }).stdout.trim();
  if (found) return found;
  if (existsSync("/usr/bin/promtool")) return "/usr/bin/promtool";
  throw new Error(
    "promtool is not installed; the alert tests need it (Debian: `apt-get install prometheus`, which `npm test` and .ci/run do as root; macOS: `brew install prometheus`).",
  );
}

/** Runs promtool in the repository; what it printed, for the failure message. */
function runPromtool(args: string[], input?: string) {
  const result = spawnSync(promtool(), args, {
    cwd: ROOT,
    input,
    encoding: "utf8",
    timeout: 60_000,
  });
  const output = `promtool ${args.join(" ")}:\n${result.stdout}${result.stderr}${result.error ?? ""}`;
  return { status: result.status, output };
}

describe("deploy/alerts.yml", () => {
  it("is a rule file promtool accepts", () => {
    const { status, output } = runPromtool(["check", "rules", RULES]);
    expect(status, output).toBe(0);
  });

  it("passes its promtool tests", () => {
    const { status, output } = runPromtool(["test", "rules", RULE_TESTS]);
    expect(status, output).toBe(0);
  });

  it("has a test of each alert firing and one of it staying quiet", () => {
    const cases = (parse(readFileSync(join(ROOT, RULE_TESTS), "utf8")) as RuleTests).tests.flatMap(
      (test) => test.alert_rule_test ?? [],
    );
    for (const { alert } of rules) {
      const mine = cases.filter((one) => one.alertname === alert);
      expect(
        mine.some((one) => (one.exp_alerts ?? []).length > 0),
        `${alert} fires in no test`,
      ).toBe(true);
      expect(
        mine.some((one) => (one.exp_alerts ?? []).length === 0),
        `${alert} stays quiet in no test`,
      ).toBe(true);
    }
  });

  it("gives each alert a severity, and a summary and a description for the operator", () => {
    expect(rules.length).toBeGreaterThan(0);
    for (const { alert, labels, annotations } of rules) {
      expect(["critical", "warning"], alert).toContain(labels?.severity);
      expect(annotations?.summary, alert).toBeTruthy();
      expect(annotations?.description, alert).toMatch(/First: /);
    }
  });
});

type Sample = { name: string; labels: Record<string, string>; value: number };
type Exposition = { types: Map<string, string>; samples: Sample[] };

/** Prometheus's text format: `# TYPE` lines and `name{label="value",…} value` samples. */
function readExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type?.[1] && type[2]) types.set(type[1], type[2]);
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample?.[1] || line.startsWith("#")) continue;
    const labels: Record<string, string> = {};
    for (const [, label, value] of (sample[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      if (label) labels[label] = value ?? "";
    }
    samples.push({ name: sample[1], labels, value: Number(sample[3]) });
  }
  return { types, samples };
}

type Selector = { name: string; matchers: Array<[string, string[]]> };

/**
 * Every darb_* series the alerts read, from their expressions and their annotations' queries,
 * with the label values each selects (`label="a"`, `label=~"a|b"`).
 */
function selectors(): Selector[] {
  const texts = rules.flatMap((rule) => [rule.expr, ...Object.values(rule.annotations ?? {})]);
  const found: Selector[] = [];
  for (const text of texts) {
    for (const [, name, inside] of text.matchAll(/\b(darb_[a-z0-9_]+)(?:\{([^}]*)\})?/g)) {
      if (!name) continue;
      const matchers: Selector["matchers"] = [];
      for (const [, label, op, value] of (inside ?? "").matchAll(/(\w+)\s*(=~|=)\s*"([^"]*)"/g)) {
        if (label && value !== undefined)
          matchers.push([label, op === "=~" ? value.split("|") : [value]]);
      }
      found.push({ name, matchers });
    }
  }
  return found;
}

/** Every combination of the values, one per label. */
function combinations(matchers: Array<[string, string[]]>): Array<Record<string, string>> {
  return matchers.reduce<Array<Record<string, string>>>(
    (all, [label, values]) =>
      all.flatMap((partial) => values.map((value) => ({ ...partial, [label]: value }))),
    [{}],
  );
}

/** What the server is configured with here: GA4 and Meta, no Redis. */
const LABEL_VALUES: Record<string, string[]> = {
  cta: ["whatsapp", "email", "demo", "link"],
  destination: ["ga4", "meta"],
  outcome: ["delivered", "refused", "unconfirmed", "given_up"],
  matched: ["true", "false"],
};
/** Present only with REDIS_URL, which this server has not. */
const REDIS_ONLY = ["darb_redis_up"];

/** The family a sample belongs to (a histogram's `_bucket`, `_count`, `_sum` are its own). */
function familyOf(name: string, types: Map<string, string>): string {
  const base = name.replace(/_(bucket|count|sum)$/, "");
  return !types.has(name) && types.get(base) === "histogram" ? base : name;
}

function typeRead(name: string): string {
  if (/_total$/.test(name)) return "counter";
  if (/_(bucket|count|sum)$/.test(name)) return "histogram";
  return "gauge";
}

describe("a replica's /metrics, as the alerts read it", () => {
  let destinations: Destinations;
  let server: ChildServer;
  let atStart: string;
  let afterLeads: string;

  beforeAll(async () => {
    destinations = await startDestinations();
    const metricsPort = await freePort();
    server = await startChildServer({
      METRICS_PORT: String(metricsPort),
      GA_MEASUREMENT_ID: "G-ALERTS123",
      GA_API_SECRET: "alerts_secret_1",
      GA_MP_ENDPOINT: destinations.gaEndpoint,
      META_PIXEL_ID: "1234567890",
      META_ACCESS_TOKEN: "alerts_access_token_0123456789",
      META_CAPI_ENDPOINT: destinations.metaEndpoint,
    });
    const metrics = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    atStart = await metrics();

    // A visit to the landing page, then two leads from two visitors.
    const headers = (n: number) => ({
      "user-agent": IPHONE_SAFARI_18,
      "x-forwarded-for": `203.0.113.${n}, 10.9.0.${n}`,
    });
    const page = await fetch(`${server.origin}/`, { headers: headers(1) });
    expect(page.status).toBe(200);
    await page.arrayBuffer();
    for (const [n, cta] of [
      [1, "whatsapp"],
      [2, "email"],
    ] as const) {
      const thanks = await fetch(`${server.origin}/thank-you?cta=${cta}&utm_source=ig`, {
        headers: headers(n),
      });
      expect(thanks.status).toBe(200);
      await thanks.arrayBuffer();
    }
    const deadline = Date.now() + 30_000;
    while (gaEvents(destinations.ga, "generate_lead").length < 2 || destinations.meta.length < 2) {
      if (Date.now() > deadline) throw new Error("GA4 and Meta did not get the two leads");
      await sleep(100);
    }
    // The outbox counts a delivery once the answer is read: then it owes nothing.
    await untilOwedNothing(metricsPort);
    afterLeads = await metrics();
  }, 60_000);

  afterAll(async () => {
    await server?.kill();
    await destinations?.close();
  });

  it("has, from the start, every series the alerts read, each counter at 0 for every configured label value", () => {
    const { types, samples } = readExposition(atStart);
    const names = [...new Set(selectors().map((selector) => selector.name))].filter(
      (name) => !REDIS_ONLY.includes(name),
    );
    expect(names).toContain("darb_outbox_events_total");
    const wrong: string[] = [];
    for (const name of names) {
      const type = types.get(familyOf(name, types));
      if (type !== typeRead(name))
        wrong.push(`${name}: a ${type ?? "missing"} metric, read as a ${typeRead(name)}`);
      const mine = samples.filter((sample) => sample.name === name);
      if (mine.length === 0) wrong.push(`${name}: no series at start`);
      if (mine.length === 0 || typeRead(name) === "histogram") continue;
      // Every label value this configuration can take, as a series of its own from the start.
      const labelled = Object.keys(mine[0]?.labels ?? {}).filter((label) => label in LABEL_VALUES);
      for (const want of combinations(
        labelled.map((label) => [label, LABEL_VALUES[label] ?? []]),
      )) {
        const match = mine.find((one) =>
          Object.entries(want).every(([label, value]) => one.labels[label] === value),
        );
        const series = `${name}${JSON.stringify(want)}`;
        if (!match) wrong.push(`${series}: missing at start`);
        else if (typeRead(name) === "counter" && match.value !== 0)
          wrong.push(`${series}: ${match.value} at start`);
      }
    }
    expect(wrong, atStart).toEqual([]);
  });

  it("has the label values the alerts select, once a visitor came and left two leads", () => {
    const { samples } = readExposition(afterLeads);
    const missing: string[] = [];
    for (const { name, matchers } of selectors()) {
      if (REDIS_ONLY.includes(name)) continue;
      for (const want of combinations(matchers)) {
        const match = samples.find(
          (sample) =>
            sample.name === name &&
            Object.entries(want).every(([label, value]) => sample.labels[label] === value),
        );
        if (!match) missing.push(`${name}${JSON.stringify(want)}`);
      }
    }
    expect([...new Set(missing)], afterLeads).toEqual([]);
    const leads = samples.filter((sample) => sample.name === "darb_leads_total");
    expect(leads.reduce((sum, sample) => sum + sample.value, 0)).toBe(2);
  });

  it("is what Prometheus accepts (promtool check metrics)", () => {
    const { status, output } = runPromtool(["check", "metrics"], afterLeads);
    expect(status, output).toBe(0);
  });
});
