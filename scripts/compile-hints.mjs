// After `remix build`: marks the framework chunk (React DOM, React Router, Remix) for eager
// compilation. V8 compiles a script's functions lazily, on the main thread, the first time each
// runs; nearly all of this chunk runs while the page hydrates, so the first visit paid for its
// compilation in long tasks. With this comment at its top, Chrome (136 and later) compiles the
// whole file on a background thread while it downloads (https://v8.dev/blog/explicit-compile-hints).
// Other browsers read a comment. The app's own chunks are left as they are: they are small.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";
const FRAMEWORK = "node_modules/react-dom/cjs/react-dom.production.min.js";

/** The client chunk that holds React DOM, from the build's metafile. */
export function frameworkChunk(root) {
  const metafile = JSON.parse(readFileSync(join(root, "build", "metafile.js.json"), "utf8"));
  const found = Object.entries(metafile.outputs).find(
    ([output, { inputs }]) =>
      output.endsWith(".js") && Object.keys(inputs).some((input) => input.endsWith(FRAMEWORK)),
  );
  if (!found) throw new Error(`compile-hints: no client chunk holds ${FRAMEWORK}`);
  return join(root, found[0]);
}

/** Adds the hint once; a second run over the same build changes nothing. */
export function addCompileHint(root) {
  const file = frameworkChunk(root);
  const code = readFileSync(file, "utf8");
  if (!code.startsWith(COMPILE_HINT)) writeFileSync(file, COMPILE_HINT + code);
  return file;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = addCompileHint(join(fileURLToPath(import.meta.url), "..", ".."));
  console.log(`compile-hints: ${file}`);
}
