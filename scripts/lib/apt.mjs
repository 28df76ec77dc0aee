// What the tests need from the system comes from Debian's packages, installed only when missing.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { run } from "./prepare.mjs";

export function canAptInstall() {
  if (process.platform !== "linux" || process.getuid?.() !== 0) return false;
  return existsSync("/etc/debian_version") && spawnSync("which", ["apt-get"]).status === 0;
}

let updated = false;

/** Installs Debian packages without recommends; false when that is not possible here. */
export function aptInstall(...packages) {
  if (!canAptInstall()) return false;
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  if (!updated) {
    if (run("apt-get", ["update", "-qq"], { env }) !== 0) return false;
    updated = true;
  }
  return (
    run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...packages], { env }) === 0
  );
}

export function onPath(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;
}
