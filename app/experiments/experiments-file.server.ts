/**
 * Reads and checks the experiments file (EXPERIMENTS_FILE, JSON or YAML) at start, like every
 * other setting: the first problem found is one line naming where it is, and start-up stops
 * (docs/decisions/022-experiments.md, docs/experiments.md for the format).
 */
import { readFileSync, statSync } from "node:fs";
import { extname } from "node:path";
import {
  jsonSyntaxError,
  parseYamlQuietly,
  type SyntaxProblem,
} from "~/experiments/syntax-error.server";
import {
  COPY_KEYS,
  type CopyKey,
  type Experiment,
  type Variant,
  type VariantCopy,
} from "~/shared/experiment";
import { LOCALES } from "~/shared/locale";

/**
 * What went wrong, and where in the file: "experiments[0].variants[1].weight must be …". Never
 * what the file says there: a name or a line of it could be anything, a pasted secret too.
 */
export class ExperimentsFileError extends Error {}

const ID = /^[A-Za-z0-9_]{1,40}$/;
const MAX_FILE_BYTES = 256 * 1024;
const MAX_EXPERIMENTS = 50;
const MAX_VARIANTS = 8;
/** Room for each piece of copy: about twice today's words, so the hero keeps its shape. */
const MAX_LENGTH: Record<CopyKey, number> = {
  "hero.headline": 120,
  "hero.subheadline": 300,
  "hero.mainAction": 60,
  "hero.mainActionNote": 200,
};
const EXPERIMENT_FIELDS = new Set(["id", "status", "traffic", "variants", "description"]);
const VARIANT_FIELDS = new Set(["id", "weight", "copy", "description"]);

type Json = unknown;

const fail = (where: string, problem: string): never => {
  throw new ExperimentsFileError(`${where} ${problem}`);
};

const isObject = (value: Json): value is Record<string, Json> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The allowed name `name` is likely a slip of (letter case, a letter left out, added, changed or
 * two swapped), if any: the message names it, never the name written, which could be anything.
 */
export function closestName(name: string, allowed: Iterable<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of allowed) {
    const limit = Math.max(1, Math.floor(candidate.length / 3));
    if (Math.abs(candidate.length - name.length) > limit) continue;
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) {
      best = { name: candidate, distance };
    }
  }
  return best?.name;
}

/** Edits (insert, delete, change, swap two neighbours) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const cell = (i: number, j: number) => rows[i]?.[j] ?? 0;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(cell(i - 1, j) + 1, cell(i, j - 1) + 1, cell(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, cell(i - 2, j - 2) + 1);
      }
      (rows[i] as number[])[j] = value;
    }
  }
  return cell(a.length, b.length);
}

const didYouMean = (name: string, allowed: Iterable<string>) => {
  const closest = closestName(name, allowed);
  return closest ? ` (did you mean ${closest}?)` : "";
};

/** Refuses a field `allowed` lacks, saying where and what is allowed, never the name itself. */
function checkFields(value: Record<string, Json>, allowed: Set<string>, where: string) {
  for (const name of Object.keys(value)) {
    if (!allowed.has(name)) {
      fail(
        where,
        `has an unknown field; it takes ${[...allowed].join(", ")}${didYouMean(name, allowed)}`,
      );
    }
  }
}

function checkId(value: Json, where: string): string {
  if (typeof value !== "string" || !ID.test(value)) {
    fail(where, "must be 1 to 40 letters, digits or _");
  }
  return value as string;
}

/** Control characters, and bidi overrides and isolates. */
function isUnsafe(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/** One line of text, without control or bidi-override characters that could reorder the page. */
function checkText(value: Json, where: string, max: number): string {
  if (typeof value !== "string" || value.trim() === "") fail(where, "must be some text");
  const text = (value as string).trim();
  if ([...text].some(isUnsafe)) {
    fail(where, "must be one line without control characters");
  }
  if ([...text].length > max) fail(where, `must be at most ${max} characters`);
  return text;
}

function checkCopy(value: Json, where: string): VariantCopy {
  if (value === undefined) return {};
  if (!isObject(value)) return fail(where, "must be an object of copy keys");
  const copy: VariantCopy = {};
  for (const [key, texts] of Object.entries(value)) {
    if (!(COPY_KEYS as readonly string[]).includes(key)) {
      fail(
        where,
        `names copy a variant cannot change; it can change ${COPY_KEYS.join(", ")}${didYouMean(key, COPY_KEYS)}`,
      );
    }
    const at = `${where}[${JSON.stringify(key)}]`;
    if (!isObject(texts)) fail(at, `must give the text in ${LOCALES.join(" and ")}`);
    const byLocale = texts as Record<string, Json>;
    checkFields(byLocale, new Set(LOCALES), at);
    const written = Object.fromEntries(
      LOCALES.map((locale) => [
        locale,
        byLocale[locale] === undefined
          ? fail(`${at}.${locale}`, "is missing: every change is written in both languages")
          : checkText(byLocale[locale], `${at}.${locale}`, MAX_LENGTH[key as CopyKey]),
      ]),
    ) as Record<(typeof LOCALES)[number], string>;
    copy[key as CopyKey] = written;
  }
  return copy;
}

function checkVariant(value: Json, where: string, index: number): Variant {
  if (!isObject(value)) return fail(where, "must be an object with an id and a weight");
  checkFields(value, VARIANT_FIELDS, where);
  const id = checkId(value.id, `${where}.id`);
  const weight = value.weight;
  if (typeof weight !== "number" || !Number.isFinite(weight) || weight <= 0) {
    fail(`${where}.weight`, "must be a number above 0");
  }
  const copy = checkCopy(value.copy, `${where}.copy`);
  if (index === 0 && Object.keys(copy).length > 0) {
    fail(`${where}.copy`, "must be empty: the first variant is the control, the page as it is");
  }
  return { id, weight: weight as number, copy };
}

function checkExperiment(value: Json, where: string): Experiment {
  if (!isObject(value)) return fail(where, "must be an object");
  checkFields(value, EXPERIMENT_FIELDS, where);
  const id = checkId(value.id, `${where}.id`);
  if (value.status !== "running" && value.status !== "stopped") {
    fail(`${where}.status`, 'must be "running" or "stopped"');
  }
  const traffic = value.traffic;
  if (typeof traffic !== "number" || !(traffic > 0 && traffic <= 1)) {
    fail(`${where}.traffic`, "must be the share of visitors who take part, above 0 and at most 1");
  }
  const list = value.variants;
  if (!Array.isArray(list) || list.length < 2 || list.length > MAX_VARIANTS) {
    fail(`${where}.variants`, `must list 2 to ${MAX_VARIANTS} variants, the control first`);
  }
  const variants = (list as Json[]).map((variant, index) =>
    checkVariant(variant, `${where}.variants[${index}]`, index),
  );
  const ids = variants.map((variant) => variant.id);
  const twice = ids.find((variantId, index) => ids.indexOf(variantId) !== index);
  if (twice) fail(`${where}.variants`, `name ${twice} twice`);
  if (variants.every((variant, index) => index === 0 || Object.keys(variant.copy).length === 0)) {
    fail(`${where}.variants`, "change nothing: give a variant after the control some copy");
  }
  return {
    id,
    status: value.status as Experiment["status"],
    traffic: traffic as number,
    variants,
  };
}

/** A parse error says where, never what is there: the file may hold anything. */
const notValid = (format: string, { line, column, problem }: SyntaxProblem): never =>
  fail("is not valid", `${format}: line ${line}, column ${column}: ${problem}`);

function readJson(text: string): Json {
  try {
    return JSON.parse(text);
  } catch {
    const where = jsonSyntaxError(text);
    return where ? notValid("JSON", where) : fail("is not valid", "JSON");
  }
}

function readYaml(text: string): Json {
  const read = parseYamlQuietly(text);
  if ("error" in read) return notValid("YAML", read.error);
  try {
    return read.doc.toJS({ maxAliasCount: 0 });
  } catch {
    return fail("is not valid", "YAML");
  }
}

/** The experiments a file's text describes, checked; `name` decides JSON or YAML. */
export function parseExperiments(text: string, name: string): Experiment[] {
  const data = /^\.ya?ml$/i.test(extname(name)) ? readYaml(text) : readJson(text);
  if (!isObject(data) || !Array.isArray(data.experiments)) {
    return fail("must be", 'an object with a list "experiments"');
  }
  checkFields(data, new Set(["experiments"]), "the top level");
  const list = data.experiments as Json[];
  if (list.length > MAX_EXPERIMENTS) fail("experiments", `must be at most ${MAX_EXPERIMENTS}`);
  const experiments = list.map((experiment, index) =>
    checkExperiment(experiment, `experiments[${index}]`),
  );
  const ids = experiments.map((experiment) => experiment.id);
  const twice = ids.find((id, index) => ids.indexOf(id) !== index);
  if (twice) fail("experiments", `name ${twice} twice`);
  const running = experiments.filter((experiment) => experiment.status === "running");
  if (running.length > 1) {
    fail(
      "experiments",
      `has ${running.length} running (${running.map((experiment) => experiment.id).join(", ")}): a visitor takes part in one test at a time, so stop all but one`,
    );
  }
  return experiments;
}

/** The file at `path`, read and checked; a missing, huge or unreadable file is one line too. */
export function readExperimentsFile(path: string): Experiment[] {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch {
    return fail("names", "no file that can be read");
  }
  if (!stat.isFile()) fail("is not", "a file");
  if (stat.size > MAX_FILE_BYTES) fail("is", `larger than ${MAX_FILE_BYTES / 1024} kB`);
  if (!/^\.(json|ya?ml)$/i.test(extname(path))) fail("must end in", ".json, .yaml or .yml");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return fail("names", "no file that can be read");
  }
  return parseExperiments(text, path);
}
