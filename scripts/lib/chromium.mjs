// Browser tests drive Debian's Chromium; Playwright never downloads a browser of its own here.
// The tests use its headless shell (the `chromium-headless-shell` package), as Playwright's own
// headless runs do: the same Blink and V8 without the desktop browser around them, which cost
// the browser tests 38% more CPU. Lighthouse in the bench keeps the full browser it is scored on.
import { existsSync } from "node:fs";
import { aptInstall, canAptInstall } from "./apt.mjs";

/** Flags that let Debian's Chromium run headless here: the network is closed but for loopback. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

function found() {
  if (process.env.CHROME_PATH) {
    if (existsSync(process.env.CHROME_PATH)) return process.env.CHROME_PATH;
    throw new Error(`CHROME_PATH is set to ${process.env.CHROME_PATH}, but no file is there.`);
  }
  return CANDIDATES.find((path) => existsSync(path));
}

const SHELLS = ["/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium-headless-shell"];

/**
 * The browser the tests drive: CHROME_PATH when set, else Debian's headless shell (installed
 * when we may), else the full Chromium.
 */
export function findTestBrowser() {
  if (process.env.CHROME_PATH) return found();
  const shell = () => SHELLS.find((path) => existsSync(path));
  const present = shell();
  if (present) return present;
  if (canAptInstall()) {
    console.log("› Installing Debian's chromium-headless-shell package for the browser tests…");
    aptInstall("chromium-headless-shell");
  }
  return shell() ?? findChromium();
}

/** The path of the full Chromium (the bench's Lighthouse), installing Debian's package when we may. */
export function findChromium() {
  const path = found();
  if (path) return path;
  if (canAptInstall()) {
    console.log("› Installing Debian's chromium package for the browser tests…");
    aptInstall("chromium");
    const installed = found();
    if (installed) return installed;
  }
  throw new Error(
    "No Chromium found for the browser tests. Install one (Debian/Ubuntu: `sudo apt-get install chromium`; " +
      "macOS: install Google Chrome) and, if it is not at /usr/bin/chromium, set CHROME_PATH to its path.",
  );
}
