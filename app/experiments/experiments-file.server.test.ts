import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  closestName,
  ExperimentsFileError,
  parseExperiments,
  readExperimentsFile,
} from "~/experiments/experiments-file.server";
import { ConfigError, parseConfig } from "~/settings.server";

const headline = { en: "Up to 25% back on insurance.", ar: "استرد حتى 25% من قسط تأمينك." };

/** A two-variant experiment, with `change` applied to it. */
function file(change: (experiment: Record<string, unknown>) => void = () => {}) {
  const experiment: Record<string, unknown> = {
    id: "hero_headline",
    status: "running",
    traffic: 1,
    variants: [
      { id: "control", weight: 50 },
      { id: "cashback_first", weight: 50, copy: { "hero.headline": headline } },
    ],
  };
  change(experiment);
  return JSON.stringify({ experiments: [experiment] });
}

/** The variant at `index` of an experiment being changed. */
const variant = (experiment: Record<string, unknown>, index: number) =>
  (experiment.variants as Record<string, unknown>[])[index] as Record<string, unknown>;

const problem = (text: string, name = "x.json") => {
  try {
    parseExperiments(text, name);
  } catch (error) {
    expect(error).toBeInstanceOf(ExperimentsFileError);
    return (error as Error).message;
  }
  throw new Error("the file was taken");
};

describe("the experiments file", () => {
  it("takes the shipped example: a 50/50 test of the hero's headline in both languages", () => {
    const [experiment, ...others] = readExperimentsFile("experiments.example.json");
    expect(others).toEqual([]);
    expect(experiment).toMatchObject({ id: "hero_headline", status: "running", traffic: 1 });
    expect(experiment?.variants.map(({ id, weight }) => [id, weight])).toEqual([
      ["control", 50],
      ["cashback_first", 50],
    ]);
    expect(experiment?.variants[0]?.copy).toEqual({});
    const changed = experiment?.variants[1]?.copy["hero.headline"];
    expect(changed?.en).toMatch(/25%/);
    expect(changed?.ar).toMatch(/25%/);
  });

  it("reads YAML as JSON, and keeps each piece of copy trimmed", () => {
    const yaml = `experiments:
  - id: hero_headline
    status: stopped
    traffic: 0.5
    variants:
      - { id: control, weight: 1 }
      - id: short_note
        weight: 1
        copy:
          hero.mainActionNote: { en: "  A link on WhatsApp within the hour. ", ar: "رابط عبر واتساب خلال ساعة." }
`;
    const [experiment] = parseExperiments(yaml, "tests.yaml");
    expect(experiment?.status).toBe("stopped");
    expect(experiment?.traffic).toBe(0.5);
    expect(experiment?.variants[1]?.copy["hero.mainActionNote"]?.en).toBe(
      "A link on WhatsApp within the hour.",
    );
  });

  it.each([
    [
      "a missing language",
      file((e) => {
        variant(e, 1).copy = { "hero.headline": { en: "Only English" } };
      }),
      'experiments[0].variants[1].copy["hero.headline"].ar is missing: every change is written in both languages',
    ],
    [
      "copy on the control",
      file((e) => {
        variant(e, 0).copy = { "hero.headline": headline };
      }),
      "experiments[0].variants[0].copy must be empty: the first variant is the control",
    ],
    [
      "copy no variant can change",
      file((e) => {
        variant(e, 1).copy = { "footer.note": headline };
      }),
      "experiments[0].variants[1].copy names copy a variant cannot change; it can change hero.headline, hero.subheadline, hero.mainAction, hero.mainActionNote",
    ],
    [
      "a copy key misspelt",
      file((e) => {
        variant(e, 1).copy = { "hero.headlin": headline };
      }),
      "experiments[0].variants[1].copy names copy a variant cannot change; it can change hero.headline, hero.subheadline, hero.mainAction, hero.mainActionNote (did you mean hero.headline?)",
    ],
    [
      "one variant",
      file((e) => {
        e.variants = [{ id: "control", weight: 1 }];
      }),
      "experiments[0].variants must list 2 to 8 variants",
    ],
    [
      "a weight of 0",
      file((e) => {
        variant(e, 1).weight = 0;
      }),
      "experiments[0].variants[1].weight must be a number above 0",
    ],
    [
      "a traffic share over 1",
      file((e) => {
        e.traffic = 50;
      }),
      "experiments[0].traffic must be the share of visitors who take part",
    ],
    [
      "a status misspelt",
      file((e) => {
        e.status = "on";
      }),
      'experiments[0].status must be "running" or "stopped"',
    ],
    [
      "a field misspelt",
      file((e) => {
        e.trafic = 1;
      }),
      "experiments[0] has an unknown field; it takes id, status, traffic, variants, description (did you mean traffic?)",
    ],
    [
      "a variant's field in another case",
      file((e) => {
        variant(e, 1).Weight = 1;
      }),
      "experiments[0].variants[1] has an unknown field; it takes id, weight, copy, description (did you mean weight?)",
    ],
    [
      "a language that is not the site's",
      file((e) => {
        variant(e, 1).copy = { "hero.headline": { ...headline, fr: "Nouveau" } };
      }),
      'experiments[0].variants[1].copy["hero.headline"] has an unknown field; it takes en, ar',
    ],
    [
      "an id with a hyphen (GA4's separator)",
      file((e) => {
        e.id = "hero-headline";
      }),
      "experiments[0].id must be 1 to 40 letters, digits or _",
    ],
    [
      "a variant named twice",
      file((e) => {
        variant(e, 1).id = "control";
      }),
      "experiments[0].variants name control twice",
    ],
    [
      "a variant that changes nothing",
      file((e) => {
        variant(e, 1).copy = {};
      }),
      "experiments[0].variants change nothing",
    ],
    [
      "a line break in copy",
      file((e) => {
        variant(e, 1).copy = {
          "hero.headline": { en: "One\nTwo", ar: headline.ar },
        };
      }),
      'copy["hero.headline"].en must be one line without control characters',
    ],
    [
      "a bidi override in copy",
      file((e) => {
        variant(e, 1).copy = {
          "hero.headline": { en: "Safe \u202e revo", ar: headline.ar },
        };
      }),
      "must be one line without control characters",
    ],
    [
      "a headline far longer than the hero holds",
      file((e) => {
        variant(e, 1).copy = {
          "hero.headline": { en: "x".repeat(121), ar: headline.ar },
        };
      }),
      'copy["hero.headline"].en must be at most 120 characters',
    ],
    ["no list", "{}", 'must be an object with a list "experiments"'],
    [
      "broken JSON",
      '{"experiments": [',
      "is not valid JSON: line 1, column 18: the file ends where a value should be",
    ],
    [
      "a missing comma",
      '{\n  "experiments": [\n    {"id": "a"}\n    {"id": "b"}\n  ]\n}',
      "is not valid JSON: line 4, column 5: expected , or ] after a value",
    ],
  ])("refuses %s, saying where", (_, text, message) => {
    const said = problem(text);
    expect(said).toContain(message);
    expect(said).not.toContain("\n");
  });

  it("refuses two running experiments: a visitor takes part in one test at a time", () => {
    const one = JSON.parse(file()).experiments[0];
    const text = JSON.stringify({ experiments: [one, { ...one, id: "second" }] });
    expect(problem(text)).toContain("has 2 running (hero_headline, second)");
    const stopped = JSON.stringify({
      experiments: [one, { ...one, id: "second", status: "stopped" }],
    });
    expect(parseExperiments(stopped, "x.json")).toHaveLength(2);
  });

  it("refuses YAML aliases, which can blow up a small file", () => {
    const yaml = "experiments: &a [*a]\n";
    expect(problem(yaml, "x.yml")).toBe(
      "is not valid YAML: line 1, column 18: an alias (*), which this file may not use",
    );
  });

  it("says where broken YAML breaks", () => {
    expect(problem("experiments:\n  - id: a\n  - id: b\n    id: c\n", "x.yaml")).toBe(
      "is not valid YAML: line 4, column 5: a key given twice",
    );
  });

  it("names no field nobody could mean", () => {
    const said = problem(file((e) => Object.assign(e, { colour: "red" })));
    expect(said).toBe(
      "experiments[0] has an unknown field; it takes id, status, traffic, variants, description",
    );
  });
});

describe("closestName", () => {
  const FIELDS = ["id", "status", "traffic", "variants", "description"];

  it.each([
    ["trafic", "traffic"],
    ["TRAFFIC", "traffic"],
    ["varaints", "variants"],
    ["descripton", "description"],
    ["ID", "id"],
    ["ids", "id"],
    ["state", "status"],
  ])("reads %s as a slip of %s", (name, meant) => {
    expect(closestName(name, FIELDS)).toBe(meant);
  });

  it.each(["x", "colour", "weight", "sk_live_51HqT9xQ2eZvKYlo2C8pV7wX", "t".repeat(10_000)])(
    "names nothing for %s",
    (name) => {
      expect(closestName(name, FIELDS)).toBeUndefined();
    },
  );
});

describe("an experiments file's error", () => {
  const SECRET = "sk_live_51HqT9xQ2eZvKYlo2C8pV7wX";
  const cases: [string, string, string][] = [
    ["an unknown field", file((e) => Object.assign(e, { [SECRET]: 1 })), "x.json"],
    ["an unknown field at the top", `{"experiments": [], "${SECRET}": true}`, "x.json"],
    [
      "an unknown copy key",
      file((e) => {
        variant(e, 1).copy = { [SECRET]: headline };
      }),
      "x.json",
    ],
    ["a bare word in JSON", `{"experiments": [], "token": ${SECRET}}`, "x.json"],
    ["JSON cut short", `{"experiments": [], "token": "${SECRET}`, "x.json"],
    ["a value where a key goes", `{"experiments": [], ${SECRET}: 1}`, "x.json"],
    ["a YAML line that breaks", `experiments: []\ntoken: '${SECRET}' x\n`, "x.yaml"],
    ["a YAML key given twice", `experiments: []\n${SECRET}: 1\n${SECRET}: 2\n`, "x.yml"],
    ["a YAML alias", `experiments: []\ntoken: *${SECRET}\n`, "x.yml"],
  ];

  it.each(cases)("for %s never quotes the file", (_, text, name) => {
    expect(problem(text, name)).not.toMatch(/sk_live|51HqT9/);
  });

  it("never quotes what stands where a file breaks, wherever that is", () => {
    const json = file();
    const yaml =
      "experiments:\n  - id: t\n    status: running\n    traffic: 1\n    variants:\n      - { id: control, weight: 1 }\n      - id: b\n        weight: 1\n        copy: { hero.headline: { en: New, ar: جديد } }\n";
    fc.assert(
      fc.property(
        fc.constantFrom<[string, string]>([json, "x.json"], [yaml, "x.yaml"]),
        fc.nat(),
        fc.constantFrom("", '"', "'", ":", ",", "{", "[", "\n", " ", "*", "&", "!"),
        ([text, name], at, glue) => {
          const i = at % (text.length + 1);
          const broken = `${text.slice(0, i)}${glue}${SECRET}${glue}${text.slice(i)}`;
          let said = "";
          try {
            parseExperiments(broken, name);
          } catch (error) {
            said = (error as Error).message;
          }
          expect(said).not.toMatch(/sk_live|51HqT9/);
        },
      ),
      { numRuns: 3000 },
    );
    // 3,000 parses: under 2 s here, past vitest's 5 s when the machine's cores are taken.
  }, 30_000);
});

describe("EXPERIMENTS_FILE", () => {
  const dir = mkdtempSync(join(tmpdir(), "darb-experiments-"));

  it("runs nothing without it", () => {
    expect(parseConfig({}).experiments).toEqual([]);
  });

  it("is read at start, and a bad file is one ConfigError naming the setting and the place", () => {
    const bad = join(dir, "bad.json");
    writeFileSync(
      bad,
      file((e) => {
        e.traffic = 2;
      }),
    );
    let error: unknown;
    try {
      parseConfig({ EXPERIMENTS_FILE: bad });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe("EXPERIMENTS_FILE");
    expect((error as Error).message).toMatch(
      /^EXPERIMENTS_FILE ".*bad\.json": experiments\[0\]\.traffic must be/,
    );
  });

  it.each([
    ["a missing file", "nowhere.json", "names no file that can be read"],
    ["a directory", ".", "is not a file"],
    ["a file of another kind", "package.json5", "names no file that can be read"],
  ])("refuses %s", (_, path, message) => {
    expect(() => parseConfig({ EXPERIMENTS_FILE: path })).toThrow(message);
  });

  it("refuses a file that is not JSON or YAML by its name", () => {
    const text = join(dir, "tests.txt");
    writeFileSync(text, file());
    expect(() => parseConfig({ EXPERIMENTS_FILE: text })).toThrow(
      "must end in .json, .yaml or .yml",
    );
  });
});
