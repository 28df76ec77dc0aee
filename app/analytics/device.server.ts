/**
 * The visitor's device as GA4's Measurement Protocol takes it (its top-level `device`), read from
 * the request's User-Agent: every GA4 event leaves from the server, so without this GA4's device
 * reports show nothing. Small on purpose: what Dubai's phones and desktops send (iPhone and iPad
 * Safari, Android's Chrome, Samsung Internet and Huawei's browser, the in-app browsers of
 * Instagram, Facebook, TikTok, Snapchat and WhatsApp, Firefox, Edge, desktop Chrome and Safari).
 *
 * Every value is a fixed word or matched against a short, safe pattern (digits and dots for a
 * version, letters, digits and a few marks for a model), so nothing a client writes reaches GA4
 * unchecked, and each is at most GA4's 100 characters. An iPad asking for the desktop site
 * (iPadOS's default) sends a Mac's user agent, and is a desktop Mac here: nothing tells them apart.
 */
import { MAX_USER_AGENT } from "~/analytics/destinations/destination.server";

export type DeviceCategory = "mobile" | "tablet" | "desktop";

/** GA4's `device`, as its reference names the fields; screen_resolution the server cannot know. */
export type Ga4Device = {
  category: DeviceCategory;
  language?: string;
  operating_system: string;
  operating_system_version?: string;
  brand?: string;
  model?: string;
  browser?: string;
  browser_version?: string;
};

/**
 * GA4 documents no limit for a device's values; its event parameters' 100 characters is the
 * strictest that could apply (the patterns below keep every value far shorter).
 */
export const DEVICE_VALUE_LENGTH = 100;

/** A version as user agents write it ("18_1", "335.0.3.21.88"): five parts at most, dotted. */
const VERSION = String.raw`(\d{1,6}(?:[._]\d{1,6}){0,4})`;
const dotted = (version: string | undefined) => version?.replaceAll("_", ".");
/** What finds the version written right after `token` ("Chrome/", "Android "). */
const after = (token: string) => new RegExp(String.raw`\b${token}${VERSION}`);
const versionBy = (patterns: readonly RegExp[], agent: string) => {
  for (const pattern of patterns) {
    const found = pattern.exec(agent)?.[1];
    if (found) return dotted(found);
  }
  return undefined;
};

type System = Pick<
  Ga4Device,
  "category" | "operating_system" | "operating_system_version" | "brand" | "model"
>;

/** Windows NT's versions as Windows names them (Windows 11 still says NT 10.0). */
const WINDOWS: Readonly<Record<string, string>> = {
  "10.0": "10",
  "6.3": "8.1",
  "6.2": "8",
  "6.1": "7",
};

const IOS_VERSION = [/\bOS (\d{1,3}(?:_\d{1,3}){0,2}) like Mac OS X/];
const ANDROID_VERSION = [after("Android ")];
const MAC_VERSION = [after("Mac OS X ")];

function systemOf(agent: string): System | null {
  const apple = /\b(iPhone|iPad|iPod)\b/.exec(agent)?.[1];
  if (apple) {
    return {
      category: apple === "iPad" ? "tablet" : "mobile",
      operating_system: "iOS",
      operating_system_version: versionBy(IOS_VERSION, agent),
      brand: "Apple",
      model: apple,
    };
  }
  if (/\bAndroid\b/.test(agent)) {
    // Phones say "Mobile"; Android's tablets leave it out (Firefox says "Tablet").
    const phone = /\bMobile\b/.test(agent) && !/\bTablet\b/.test(agent);
    return {
      category: phone ? "mobile" : "tablet",
      operating_system: "Android",
      operating_system_version: versionBy(ANDROID_VERSION, agent),
      ...androidModel(agent),
    };
  }
  if (/\bWindows NT\b/.test(agent)) {
    const nt = /\bWindows NT (\d{1,2}\.\d)/.exec(agent)?.[1];
    return {
      category: "desktop",
      operating_system: "Windows",
      operating_system_version: nt === undefined ? undefined : WINDOWS[nt],
    };
  }
  if (/\bCrOS\b/.test(agent)) return { category: "desktop", operating_system: "Chrome OS" };
  if (/\bMacintosh\b/.test(agent)) {
    return {
      category: "desktop",
      // As GA4's own reports name it.
      operating_system: "Macintosh",
      operating_system_version: versionBy(MAC_VERSION, agent),
    };
  }
  if (/\b(Linux|Ubuntu|Fedora)\b/.test(agent)) {
    return { category: "desktop", operating_system: "Linux" };
  }
  return null;
}

/** A model as an Android user agent writes it: letters, digits, spaces and ._+- only. */
const MODEL = /^[A-Za-z0-9][A-Za-z0-9 ._+-]{0,39}$/;
/**
 * What sits where a model would and is none: Chrome's reduced "K" (it no longer tells the
 * model), the WebView's "wv", Firefox's "Mobile", a locale ("en-us"), Huawei's own tokens.
 */
const NOT_A_MODEL = /^(K|wv|U|Mobile|Tablet|HarmonyOS|HMSCore\b.*|[a-z]{2}[-_][a-zA-Z]{2})$/;

/** The makers whose models say who they are, by how the model starts. */
const BRANDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(SM-|Galaxy\b)/, "Samsung"],
  [/^Pixel\b/, "Google"],
  [/^(Redmi|POCO|Mi|Xiaomi)\b/i, "Xiaomi"],
  [/^HUAWEI\b/i, "Huawei"],
  [/^HONOR\b/i, "Honor"],
  [/^(moto|Motorola)\b/i, "Motorola"],
  [/^Nokia\b/i, "Nokia"],
  [/^OnePlus\b/i, "OnePlus"],
  [/^Infinix\b/i, "Infinix"],
  [/^TECNO\b/i, "Tecno"],
];

function androidModel(agent: string): Pick<Ga4Device, "brand" | "model"> {
  // The parenthesis after "Mozilla/5.0": "Linux; Android 14; SM-S918B Build/UP1A; wv".
  const inside = /\(([^()]{0,300})\)/.exec(agent)?.[1] ?? "";
  const parts = inside.split(";").map((part) => part.replace(/\s+Build\/.*$/, "").trim());
  const android = parts.findIndex((part) => /^Android\b/.test(part));
  if (android < 0) return {};
  const found = parts
    .slice(android + 1)
    .find((part) => MODEL.test(part) && !NOT_A_MODEL.test(part));
  if (!found) return {};
  // Samsung's own browser once wrote "SAMSUNG SM-G991B": the model is the code.
  const model = found.replace(/^SAMSUNG\s+(?=SM-)/i, "");
  const brand = BRANDS.find(([pattern]) => pattern.test(model))?.[1];
  return { ...(brand ? { brand } : {}), model };
}

type BrowserRule = { name: string; is: RegExp; version: readonly RegExp[] };

/**
 * Browsers by the token that names them: in-app browsers and those built on Chrome first (each
 * also says "Chrome" or "Safari"), Chrome and Safari last. A version is read after the first of
 * its tokens the user agent has.
 */
const BROWSERS: readonly BrowserRule[] = [
  { name: "Instagram", is: /\bInstagram \d/, version: [after("Instagram ")] },
  { name: "Facebook", is: /\b(FBAN|FBAV|FB_IAB)\//, version: [after("FBAV/")] },
  {
    name: "TikTok",
    // Android's writes the app's version as app_version, an iPhone's after musical_ly_.
    is: /\bmusical_ly|\bBytedanceWebview\b|\bTikTok\b/,
    version: [after("app_version/"), after("musical_ly_")],
  },
  { name: "Snapchat", is: /\bSnapchat\//, version: [after("Snapchat/")] },
  { name: "WhatsApp", is: /\bWhatsApp\//, version: [after("WhatsApp/")] },
  { name: "Edge", is: /\bEdg(e|A|iOS)?\//, version: [after("Edg(?:e|A|iOS)?/")] },
  { name: "Opera", is: /\b(OPR|OPiOS)\//, version: [after("(?:OPR|OPiOS)/")] },
  { name: "Samsung Internet", is: /\bSamsungBrowser\//, version: [after("SamsungBrowser/")] },
  { name: "Huawei Browser", is: /\bHuaweiBrowser\//, version: [after("HuaweiBrowser/")] },
  { name: "Mi Browser", is: /\bMiuiBrowser\//, version: [after("MiuiBrowser/")] },
  { name: "Firefox", is: /\b(Firefox|FxiOS)\//, version: [after("(?:Firefox|FxiOS)/")] },
  { name: "Chrome", is: /\bCriOS\//, version: [after("CriOS/")] },
  // An app's own web view on Android (an in-app browser this list does not name).
  { name: "Android Webview", is: /; wv\).*\bChrome\//, version: [after("Chrome/")] },
  { name: "Chrome", is: /\b(Chrome|Chromium)\//, version: [after("(?:Chrome|Chromium)/")] },
  { name: "Safari", is: /\bVersion\/\d.*\bSafari\//, version: [after("Version/")] },
];

function browserOf(agent: string, system: System): Pick<Ga4Device, "browser" | "browser_version"> {
  const rule = BROWSERS.find((each) => each.is.test(agent));
  if (rule) {
    const version = versionBy(rule.version, agent);
    return { browser: rule.name, ...(version ? { browser_version: version } : {}) };
  }
  // An iPhone app showing a page in its own web view (no Safari "Version/"): GA4's own name.
  if (system.operating_system === "iOS") return { browser: "Safari (in-app)" };
  return {};
}

/**
 * GA4's `device` for a user agent, with `language` (the page's, "en" or "ar") when known; none
 * when no operating system is recognised (then GA4 may read the user agent itself) or the user
 * agent is longer than a browser's.
 */
export function deviceOf(userAgent: string, language?: string): Ga4Device | undefined {
  if (userAgent.length > MAX_USER_AGENT) return undefined;
  const system = systemOf(userAgent);
  if (!system) return undefined;
  const device: Ga4Device = {
    ...system,
    ...browserOf(userAgent, system),
    ...(language ? { language } : {}),
  };
  // Fields not found dropped, and every value within GA4's limit.
  return Object.fromEntries(
    Object.entries(device)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, String(value).slice(0, DEVICE_VALUE_LENGTH)]),
  ) as Ga4Device;
}

/**
 * The user agent itself for GA4 to read (`user_agent`), when it is a plausible one: printable
 * ASCII, no longer than a browser's. GA4 ignores it beside a `device`.
 */
export function plausibleUserAgent(userAgent: string): string | undefined {
  const plausible =
    userAgent.length > 0 && userAgent.length <= MAX_USER_AGENT && /^[\x20-\x7e]+$/.test(userAgent);
  return plausible ? userAgent : undefined;
}
