/**
 * A package loaded the first time it is used rather than when the server starts. For packages
 * most starts never touch (Redis's client without REDIS_URL, the experiments report's
 * statistics): loading them costs every start, a failing one included, about a tenth of a
 * second of CPU. A plain `import` would be hoisted to the top of the server build.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export function requiredOnUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= require(name) as T;
    return loaded;
  };
}
