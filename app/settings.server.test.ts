// The settings the features declare are the ones an operator reads of and sets: docs/settings.md's
// table, .env.example and deploy/compose.yaml's environment list the same names, and each
// declaration says what it is and keeps a secret's value out of its messages.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ConfigError } from "~/platform/setting-readers.server";
import { allSettings } from "~/settings.server";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const file = (path: string) => readFileSync(`${ROOT}${path}`, "utf8");

/**
 * What compose does not pass from deploy/.env, each for a reason its comment gives: the image's
 * port and interfaces, the image's volume, each replica's own name, and this topology's Redis and
 * proxy (given values of compose's own).
 */
const NOT_FROM_DEPLOY_ENV = ["PORT", "HOST", "DATA_DIR", "REPLICA_ID", "REDIS_URL", "TRUST_PROXY"];

/** Defaults docs/settings.md gives in words, not as the value: what it says of each. */
const DEFAULTS_IN_WORDS: Record<string, string> = {
  REPLICA_ID: "the hostname",
  GA_MP_ENDPOINT: "Google's",
  WHATSAPP_NUMBER: "samples",
  CONTACT_EMAIL: "samples",
  CONTACT_PHONE: "samples",
  DEMO_URL: "samples",
};

const declared = () => allSettings().map(({ name }) => name);

/** The variables docs/settings.md's table names, from each row's first cell. */
function documented(): string[] {
  return file("docs/settings.md")
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...(line.split("|")[1] ?? "").matchAll(/`([A-Z][A-Z0-9_]+)`/g)])
    .map((match) => match[1] as string);
}

/** The variables .env.example lists, set or commented out. */
const exampled = () =>
  [...file(".env.example").matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1] as string);

type Compose = { services: Record<string, { environment?: Record<string, string> }> };

/** What compose.yaml gives a replica, name and value. */
const composed = () =>
  (parse(file("deploy/compose.yaml"), { merge: true }) as Compose).services["site-1"]
    ?.environment ?? {};

/** The names in `list` that `other` lacks. */
const lacking = (other: string[], list: string[]) => list.filter((name) => !other.includes(name));

describe("the settings schema", () => {
  it("declares each setting once, by its name, with one line on what it is", () => {
    const names = declared();
    expect(names.length).toBeGreaterThan(50);
    expect(new Set(names).size).toBe(names.length);
    for (const setting of allSettings()) {
      expect(setting.name).toMatch(/^[A-Z][A-Z0-9_]+$/);
      expect(setting.description, setting.name).toMatch(/^[^\n]{10,120}$/);
    }
  });

  it("is what docs/settings.md's table lists, no more, no less", () => {
    expect(lacking(documented(), declared()), "docs/settings.md lacks").toEqual([]);
    expect(lacking(declared(), documented()), "the schema does not declare").toEqual([]);
  });

  it("has docs/settings.md say each default the schema reads while a setting is unset", () => {
    const rows = file("docs/settings.md")
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .map((line) => line.split("|").map((cell) => cell.trim()));
    for (const setting of allSettings()) {
      const row = rows.find(([, names]) => names?.includes(`\`${setting.name}\``));
      const said = row?.[2] ?? "";
      if (setting.default === undefined) continue;
      // A few defaults the table says in words: the machine's name, Google's address, samples.
      const words = DEFAULTS_IN_WORDS[setting.name];
      if (words) expect(said, setting.name).toContain(words);
      else expect(said, setting.name).toContain(`\`${setting.default}\``);
    }
  });

  it("is what .env.example lists, no more, no less", () => {
    expect(lacking(exampled(), declared()), ".env.example lacks").toEqual([]);
    expect(lacking(declared(), exampled()), "the schema does not declare").toEqual([]);
  });

  it("is what compose.yaml passes from deploy/.env, but the few it sets itself and says why", () => {
    const passed = Object.entries(composed());
    const fromDeployEnv = passed
      .filter(([name, value]) => value.startsWith(`\${${name}:`))
      .map(([name]) => name);
    const expected = lacking(NOT_FROM_DEPLOY_ENV, declared());
    expect(lacking(fromDeployEnv, expected), "compose.yaml does not pass").toEqual([]);
    const names = passed.map(([name]) => name);
    expect(lacking(declared(), names), "the schema does not declare").toEqual([]);
    expect(lacking(declared(), NOT_FROM_DEPLOY_ENV)).toEqual([]);
    // Each one it does not pass from deploy/.env, it names in a comment that says why.
    const comments = file("deploy/compose.yaml")
      .split("\n")
      .filter((line) => /^\s*#/.test(line))
      .join("\n");
    for (const name of NOT_FROM_DEPLOY_ENV) {
      expect(fromDeployEnv, name).not.toContain(name);
      expect(comments, `compose.yaml says why it does not pass ${name}`).toContain(name);
    }
  });

  it("never shows a secret's value back, whatever its check", () => {
    const secrets = allSettings().filter((setting) => setting.secret);
    expect(secrets.map(({ name }) => name)).toEqual(
      expect.arrayContaining(["ANALYTICS_SALT", "REDIS_URL", "GA_API_SECRET", "LEADS_API_TOKEN"]),
    );
    // Values each setting refuses: spaces, a scheme of no use, too short, a newline.
    const values = ["bad value x1y2z3", "ftp://user:pa55word@host/x y", "s3cr3t", "a\nsecret-line"];
    for (const setting of secrets) {
      for (const value of values) {
        let message = "";
        try {
          setting.read({ [setting.name]: value });
        } catch (error) {
          expect(error, setting.name).toBeInstanceOf(ConfigError);
          message = (error as ConfigError).message;
        }
        expect(message, `${setting.name} shows ${JSON.stringify(value)}`).not.toContain(
          value.trim(),
        );
      }
    }
  });
});
