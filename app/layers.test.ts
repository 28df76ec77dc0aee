/**
 * One way down: the folders of app/ stand on floors, and a module imports only what stands on
 * its own floor's folder or below. Two folders that import each other both ways could not be
 * read, tested or moved one without the other, so that fails too. Only imports that run count:
 * `import type`, `import { type A }` and `typeof import(…)` vanish from the build.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Top to bottom. A folder (or a module at app/'s top, by its name) may import its own floor's
 * folder and any floor below; folders on one floor never import each other.
 */
const FLOORS: readonly { folders: readonly string[]; why: string }[] = [
  {
    folders: ["routes", "root", "entry.server", "entry.client", "settings.server"],
    why: "Remix's entry points and route modules, and the settings every feature declares, composed",
  },
  {
    folders: ["document"],
    why: "the pipeline every page is sent through: it fills in the landing's static parts",
  },
  {
    folders: ["landing"],
    why: "the landing page's sections and what renders each of its static parts",
  },
  { folders: ["components"], why: "rendering, used by every page" },
  {
    folders: ["share"],
    why: "the share links, popup and hooks that the share menu and page render",
  },
  { folders: ["hooks"], why: "React hooks over the root's data, the visit and the copy" },
  {
    folders: ["pages"],
    why: "what the server works out for a page: heads, structured data, sitemap, legal texts",
  },
  {
    folders: ["analytics"],
    why: "events on their way out: the browser's queue, the server's sink and outbox",
  },
  {
    folders: ["experiments"],
    why: "copy tests: who sees which variant, and the report over the leads",
  },
  {
    folders: ["leads"],
    why: "a lead: counted, limited, written down in the ledger, credited to its variant",
  },
  { folders: ["content"], why: "all copy, typed, and how it writes numbers and dates" },
  {
    folders: ["platform", "browser"],
    why: "what each side runs on: settings, log lines, request context; the browser's DOM",
  },
  {
    folders: ["shared"],
    why: "the ground floor: pure vocabulary and helpers for both sides, nothing of app/ above",
  },
];

const APP = join(import.meta.dirname, "..", "app");

type Link = { from: string; to: string; specifier: string; text: string };

/** Every .ts/.tsx under app/ but tests, as a path from the repository's root. */
function sources(dir = APP): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)
      ? [relative(join(APP, ".."), path)]
      : [];
  });
}

/** A file in app/leads/ → "leads"; app/root.tsx → "root". */
const folderOf = (path: string) => {
  const parts = path.split("/");
  return parts.length > 2 ? (parts[1] as string) : (parts[1] as string).replace(/\.tsx?$/, "");
};

/**
 * The modules a source names: static imports, re-exports and dynamic imports. Without `types`,
 * only those that run (`import type`, `import { type A }` and `typeof import(…)` vanish from the
 * build); with it, every one.
 */
function specifiers(path: string, text: string, { types = false } = {}): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const allTypes = (elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>) =>
    elements.length > 0 && elements.every((element) => element.isTypeOnly);
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (!clause.name &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            allTypes(clause.namedBindings.elements)));
      if (types || !typeOnly) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly =
        node.isTypeOnly ||
        (node.exportClause !== undefined &&
          ts.isNamedExports(node.exportClause) &&
          allTypes(node.exportClause.elements));
      if (types || !typeOnly) found.push(node.moduleSpecifier.text);
    } else if (
      types &&
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push(node.argument.literal.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The app/ path an import names, or null for a package's. */
function target(from: string, specifier: string): string | null {
  if (specifier.startsWith("~/")) return `app/${specifier.slice(2)}`;
  if (specifier.startsWith(".")) return join(dirname(from), specifier);
  return null;
}

/** Every import from one folder of app/ into another: those that run, or with types too. */
function links(options?: { types: boolean }): Link[] {
  return sources().flatMap((from) =>
    specifiers(from, readFileSync(join(APP, "..", from), "utf8"), options).flatMap((specifier) => {
      const path = target(from, specifier);
      // A stylesheet is the bundler's, not a module's dependency.
      if (path === null || !/^app\//.test(path) || /\.css$/.test(path)) return [];
      const to = folderOf(path);
      const source = folderOf(from);
      return to === source
        ? []
        : [{ from: source, to, specifier, text: `${from} -> ${specifier}` }];
    }),
  );
}

const floorOf = (folder: string) => FLOORS.findIndex(({ folders }) => folders.includes(folder));

describe("app/'s folders import one way down", () => {
  const all = links();

  it("puts every folder of app/ on a floor", () => {
    const folders = new Set(sources().map(folderOf));
    const homeless = [...folders].filter((folder) => floorOf(folder) < 0);
    expect(homeless, "add each new folder to FLOORS, where what it imports says").toEqual([]);
  });

  it("has no two folders importing each other", () => {
    const counted = all;
    const way = (from: string, to: string) =>
      counted.filter((link) => link.from === from && link.to === to).map(({ text }) => text);
    const pairs = [...new Set(counted.map(({ from, to }) => [from, to].sort().join(" <-> ")))]
      .map((pair) => pair.split(" <-> ") as [string, string])
      .filter(([a, b]) => way(a, b).length > 0 && way(b, a).length > 0)
      .map(([a, b]) => {
        // The thinner way is most likely the one to undo: all of it, and the other's count.
        const [few, many] = [way(a, b), way(b, a)].sort((x, y) => x.length - y.length);
        return `${a} <-> ${b}: ${few?.join(", ")} (and ${many?.length} the other way, as ${many?.[0]})`;
      });
    expect(pairs, "these folders import each other").toEqual([]);
  });

  const upward = (found: Link[]) =>
    found
      .filter(({ from, to }) => floorOf(to) >= 0 && floorOf(to) <= floorOf(from))
      .map(({ text }) => text);

  it("never imports a folder on a floor above, nor one beside it", () => {
    expect(upward(all), "these imports run up (or across) the floors in FLOORS").toEqual([]);
  });

  // A type names what it comes from too: a reader follows it up as they would an import. What
  // sits above declares its shape into an interface below instead (platform/config.server.ts,
  // Services in platform/request-context.server.ts, as Remix's AppLoadContext). Only Remix's
  // own idiom stays: a component reads its route's data (`typeof loader`, the outlet context).
  it("names a type from above only for a route's loader data", () => {
    expect(upward(links({ types: true })), "these types are named from a floor above").toEqual([
      "app/components/GetStarted.tsx -> ~/root",
      "app/components/Hero.tsx -> ~/routes/_index",
      "app/hooks/use-site.ts -> ~/root",
    ]);
  });
});
