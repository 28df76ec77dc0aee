// The W3C Nu HTML Checker (vnu-jar) runs on Java; Debian's headless JRE is enough.
import { join } from "node:path";
import { aptInstall, onPath } from "./apt.mjs";

/** True when a Java runtime is there for the checker, installing Debian's when we may. */
export function ensureJava() {
  if (process.env.JAVA_HOME || onPath("java")) return true;
  console.log("› Installing Debian's default-jre-headless for the W3C HTML checker…");
  if (aptInstall("default-jre-headless") && onPath("java")) return true;
  console.error(
    `✖ No Java runtime for the W3C Nu HTML Checker. Install one (Debian/Ubuntu: \`sudo apt-get install default-jre-headless\`; macOS: \`brew install openjdk\`) or set JAVA_HOME (looked for ${join("$JAVA_HOME", "bin", "java")} and java on PATH).`,
  );
  return false;
}
