// The W3C Nu HTML Checker (npm's vnu-jar), run on documents the way the validator site would.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type VnuMessage = {
  type: "error" | "info" | "non-document-error";
  subType?: "warning" | "fatal" | "io" | "schema" | "internal";
  url: string;
  message: string;
  extract?: string;
  firstLine?: number;
  lastLine?: number;
  firstColumn?: number;
};

const jar = createRequire(import.meta.url).resolve("vnu-jar/build/dist/vnu.jar");
const java = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, "bin", "java") : "java";

/**
 * Checks each document as a file named for its kind (`.html`, or `.xhtml` to have it parsed as
 * XML) in one JVM start, and returns every message.
 */
export async function checkDocuments(documents: Record<string, string>): Promise<VnuMessage[]> {
  const dir = mkdtempSync(join(tmpdir(), "vnu-"));
  try {
    const files = Object.entries(documents).map(([name, text]) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    });
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        java,
        ["-Xss4m", "-jar", jar, "--format", "json", "--stdout", "--exit-zero-always", ...files],
        { maxBuffer: 64 * 1024 * 1024 },
        (error, stdout) => {
          if (error && (error as NodeJS.ErrnoException).code === "ENOENT") {
            reject(
              new Error(
                "Java is needed for the W3C Nu HTML Checker and was not found: `npm test` installs Debian's default-jre-headless, or set JAVA_HOME.",
              ),
            );
          } else if (error) reject(error);
          else resolve(stdout);
        },
      );
    });
    const { messages } = JSON.parse(output) as { messages: VnuMessage[] };
    return messages.map((message) => ({ ...message, url: message.url.replace(/^.*\//, "") }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const describeMessage = (message: VnuMessage) =>
  `${message.url}:${message.lastLine ?? "?"}:${message.firstColumn ?? "?"} ${message.type}${message.subType ? `/${message.subType}` : ""}: ${message.message}${message.extract ? ` …${message.extract.trim()}…` : ""}`;
