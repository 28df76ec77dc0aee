// GA4's device from a user agent: what Dubai's phones, in-app browsers and desktops send, each
// read as GA4's reports name it, and a hostile user agent giving short, safe values or nothing.
import { describe, expect, it } from "vitest";
import { DEVICE_VALUE_LENGTH, deviceOf, plausibleUserAgent } from "~/analytics/device.server";
import {
  ANDROID_CHROME,
  CURL,
  IPHONE_SAFARI_17,
  IPHONE_SAFARI_18,
  IPHONE_SAFARI_18_1,
  SAMSUNG_INTERNET,
} from "../../tests/support/user-agents";

const IPAD =
  "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
/** iPadOS asks for the desktop site by default: its user agent is a Mac's, word for word. */
const IPAD_DESKTOP_MODE =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";
const ANDROID_REDUCED =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
const ANDROID_TABLET =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAMSUNG_INTERNET_REDUCED =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/27.0 Chrome/125.0.0.0 Mobile Safari/537.36";
const HUAWEI_BROWSER =
  "Mozilla/5.0 (Linux; Android 10; HarmonyOS; ELS-NX9; HMSCore 6.13.0.302) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.5735.196 HuaweiBrowser/15.0.4.312 Mobile Safari/537.36";
const INSTAGRAM_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 335.0.3.21.88 (iPhone14,2; iOS 17_5; en_AE; en; scale=3.00; 1170x2532; 614553405)";
const INSTAGRAM_ANDROID =
  "Mozilla/5.0 (Linux; Android 14; SM-S918B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.6778.39 Mobile Safari/537.36 Instagram 358.0.0.51.97 Android (34/14; 480dpi; 1080x2340; samsung; SM-S918B; dm1q; qcom; en_GB; 662112315)";
const FACEBOOK_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/470.0.0.39.109;FBBV/640130745;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;FBSV/17.5;FBSS/3;FBID/phone;FBLC/en_GB;FBOP/5;FBRV/642284339]";
const FACEBOOK_ANDROID =
  "Mozilla/5.0 (Linux; Android 14; SM-A546E Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.6778.39 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/490.0.0.50.109;]";
const TIKTOK_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 musical_ly_35.1.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en Region/AE isDarkMode/0 WKWebView/1 BytedanceWebview/d8a21c6";
const TIKTOK_ANDROID =
  "Mozilla/5.0 (Linux; Android 13; 23021RAA2Y Build/TKQ1.221114.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 musical_ly_2023405040 JsSdk/1.0 NetType/WIFI Channel/googleplay AppName/musical_ly app_version/34.5.4 ByteLocale/en ByteFullLocale/en Region/AE BytedanceWebview/d8a21c6";
const SNAPCHAT_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Snapchat/12.60.0.43 (like Safari/8617.1.17.10.4, panda)";
/** An app's web view that says it is WhatsApp's (most phones hand WhatsApp's links to Safari or Chrome). */
const WHATSAPP_IN_APP =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/128.0.6613.127 Mobile Safari/537.36 WhatsApp/2.24.18.80";
const UNNAMED_ANDROID_APP =
  "Mozilla/5.0 (Linux; Android 13; Redmi Note 12 Build/TKQ1.221114.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.230 Mobile Safari/537.36";
const GOOGLE_APP_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/318.0.636488495 Mobile/15E148 Safari/604.1";
const CHROME_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1";
const FIREFOX_ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0";
const FIREFOX_ANDROID_TABLET =
  "Mozilla/5.0 (Android 14; Tablet; rv:133.0) Gecko/133.0 Firefox/133.0";
const FIREFOX_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15";
const FIREFOX_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const EDGE_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70";
const EDGE_ANDROID =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.2903.68";
const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const CHROME_MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const CHROME_LINUX =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const CHROME_OS =
  "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAFARI_MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15";
const WINDOWS_7_CHROME =
  "Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36";

const iphone = { category: "mobile", operating_system: "iOS", brand: "Apple", model: "iPhone" };
const android = { category: "mobile", operating_system: "Android" };
const windows = {
  category: "desktop",
  operating_system: "Windows",
  operating_system_version: "10",
};

describe("a phone's user agent", () => {
  it.each([
    ["iPhone Safari, iOS 18.1", IPHONE_SAFARI_18_1, "18.1"],
    ["iPhone Safari, iOS 18.5", IPHONE_SAFARI_18, "18.5"],
    ["iPhone Safari, iOS 17.0", IPHONE_SAFARI_17, "17.0"],
  ])("%s is an Apple iPhone on iOS in Safari", (_, agent, version) => {
    expect(deviceOf(agent)).toEqual({
      ...iphone,
      operating_system_version: version,
      browser: "Safari",
      browser_version: version,
    });
  });

  it("an iPad is a tablet; asking for the desktop site, a Mac (nothing tells them apart)", () => {
    expect(deviceOf(IPAD)).toEqual({
      category: "tablet",
      operating_system: "iOS",
      operating_system_version: "17.5",
      brand: "Apple",
      model: "iPad",
      browser: "Safari",
      browser_version: "17.5",
    });
    expect(deviceOf(IPAD_DESKTOP_MODE)).toEqual({
      category: "desktop",
      operating_system: "Macintosh",
      operating_system_version: "10.15.7",
      browser: "Safari",
      browser_version: "17.5",
    });
  });

  it("Android Chrome with the model it names, and with Chrome's reduced 'Android 10; K' (no model)", () => {
    expect(deviceOf(ANDROID_CHROME)).toEqual({
      ...android,
      operating_system_version: "14",
      brand: "Google",
      model: "Pixel 7",
      browser: "Chrome",
      browser_version: "126.0",
    });
    expect(deviceOf(ANDROID_REDUCED)).toEqual({
      ...android,
      operating_system_version: "10",
      browser: "Chrome",
      browser_version: "131.0.0.0",
    });
    // Android's tablets leave "Mobile" out.
    expect(deviceOf(ANDROID_TABLET)?.category).toBe("tablet");
  });

  it("Samsung Internet: Samsung's model code, or none in its reduced form", () => {
    expect(deviceOf(SAMSUNG_INTERNET)).toEqual({
      ...android,
      operating_system_version: "14",
      brand: "Samsung",
      model: "SM-S918B",
      browser: "Samsung Internet",
      browser_version: "26.0",
    });
    expect(deviceOf(SAMSUNG_INTERNET_REDUCED)).toEqual({
      ...android,
      operating_system_version: "10",
      browser: "Samsung Internet",
      browser_version: "27.0",
    });
  });

  it("Huawei's browser, past HarmonyOS's and HMS's own tokens to the model", () => {
    expect(deviceOf(HUAWEI_BROWSER)).toEqual({
      ...android,
      operating_system_version: "10",
      model: "ELS-NX9",
      browser: "Huawei Browser",
      browser_version: "15.0.4.312",
    });
  });

  it.each([
    [
      "Instagram on an iPhone",
      INSTAGRAM_IPHONE,
      { ...iphone, operating_system_version: "17.5" },
      "Instagram",
      "335.0.3.21.88",
    ],
    [
      "Instagram on a Galaxy",
      INSTAGRAM_ANDROID,
      { ...android, operating_system_version: "14", brand: "Samsung", model: "SM-S918B" },
      "Instagram",
      "358.0.0.51.97",
    ],
    [
      "Facebook on an iPhone",
      FACEBOOK_IPHONE,
      { ...iphone, operating_system_version: "17.5" },
      "Facebook",
      "470.0.0.39.109",
    ],
    [
      "Facebook on a Galaxy",
      FACEBOOK_ANDROID,
      { ...android, operating_system_version: "14", brand: "Samsung", model: "SM-A546E" },
      "Facebook",
      "490.0.0.50.109",
    ],
    [
      "TikTok on an iPhone",
      TIKTOK_IPHONE,
      { ...iphone, operating_system_version: "17.5" },
      "TikTok",
      "35.1.0",
    ],
    [
      "TikTok on Android (app_version, not the build number)",
      TIKTOK_ANDROID,
      { ...android, operating_system_version: "13", model: "23021RAA2Y" },
      "TikTok",
      "34.5.4",
    ],
    [
      "Snapchat on an iPhone",
      SNAPCHAT_IPHONE,
      { ...iphone, operating_system_version: "17.1" },
      "Snapchat",
      "12.60.0.43",
    ],
    [
      "WhatsApp's own web view",
      WHATSAPP_IN_APP,
      { ...android, operating_system_version: "14", brand: "Google", model: "Pixel 8" },
      "WhatsApp",
      "2.24.18.80",
    ],
  ])("%s: the app is the browser", (_, agent, system, browser, version) => {
    expect(deviceOf(agent)).toEqual({ ...system, browser, browser_version: version });
  });

  it("an app's web view this list does not name is GA4's Android Webview or Safari (in-app)", () => {
    expect(deviceOf(UNNAMED_ANDROID_APP)).toEqual({
      ...android,
      operating_system_version: "13",
      brand: "Xiaomi",
      model: "Redmi Note 12",
      browser: "Android Webview",
      browser_version: "120.0.6099.230",
    });
    expect(deviceOf(GOOGLE_APP_IPHONE)).toEqual({
      ...iphone,
      operating_system_version: "17.5",
      browser: "Safari (in-app)",
    });
  });

  it("Chrome and Firefox on an iPhone, Firefox and Edge on Android", () => {
    expect(deviceOf(CHROME_IPHONE)).toMatchObject({
      ...iphone,
      browser: "Chrome",
      browser_version: "131.0.6778.73",
    });
    expect(deviceOf(FIREFOX_IPHONE)).toMatchObject({
      ...iphone,
      browser: "Firefox",
      browser_version: "133.0",
    });
    expect(deviceOf(FIREFOX_ANDROID)).toEqual({
      ...android,
      operating_system_version: "14",
      browser: "Firefox",
      browser_version: "133.0",
    });
    expect(deviceOf(FIREFOX_ANDROID_TABLET)?.category).toBe("tablet");
    expect(deviceOf(EDGE_ANDROID)).toMatchObject({
      ...android,
      browser: "Edge",
      browser_version: "131.0.2903.68",
    });
  });
});

describe("a desktop's user agent", () => {
  it.each([
    ["Chrome on Windows", CHROME_WINDOWS, windows, "Chrome", "131.0.0.0"],
    ["Edge on Windows", EDGE_WINDOWS, windows, "Edge", "131.0.2903.70"],
    ["Firefox on Windows", FIREFOX_WINDOWS, windows, "Firefox", "133.0"],
    [
      "Chrome on Windows 7",
      WINDOWS_7_CHROME,
      { ...windows, operating_system_version: "7" },
      "Chrome",
      "109.0.0.0",
    ],
    [
      "Chrome on a Mac",
      CHROME_MAC,
      { category: "desktop", operating_system: "Macintosh", operating_system_version: "10.15.7" },
      "Chrome",
      "131.0.0.0",
    ],
    [
      "Safari on a Mac",
      SAFARI_MAC,
      { category: "desktop", operating_system: "Macintosh", operating_system_version: "10.15.7" },
      "Safari",
      "18.1",
    ],
    [
      "Chrome on Linux",
      CHROME_LINUX,
      { category: "desktop", operating_system: "Linux" },
      "Chrome",
      "131.0.0.0",
    ],
    [
      "Chrome on a Chromebook",
      CHROME_OS,
      { category: "desktop", operating_system: "Chrome OS" },
      "Chrome",
      "131.0.0.0",
    ],
  ])("%s", (_, agent, system, browser, version) => {
    expect(deviceOf(agent)).toEqual({ ...system, browser, browser_version: version });
  });
});

describe("the page's language", () => {
  it("joins the device when known, and is left out when not", () => {
    expect(deviceOf(IPHONE_SAFARI_18_1, "ar")?.language).toBe("ar");
    expect(deviceOf(IPHONE_SAFARI_18_1, "en")?.language).toBe("en");
    expect(deviceOf(IPHONE_SAFARI_18_1)).not.toHaveProperty("language");
  });
});

describe("what is no browser's user agent", () => {
  it("gives no device: no operating system recognised, GA4 may read it itself", () => {
    expect(deviceOf("")).toBeUndefined();
    expect(deviceOf(CURL)).toBeUndefined();
    expect(deviceOf("Mozilla/5.0 (compatible; SomethingNew/1.0)")).toBeUndefined();
  });

  it("gives nothing for 10 KB, even with a phone's words at its start", () => {
    expect(deviceOf(`${IPHONE_SAFARI_18_1} ${"x".repeat(10 * 1024)}`)).toBeUndefined();
    expect(plausibleUserAgent(`${IPHONE_SAFARI_18_1} ${"x".repeat(10 * 1024)}`)).toBeUndefined();
  });

  it.each([
    [
      "markup for a model",
      "Mozilla/5.0 (Linux; Android 14; <script>alert(1)</script>) Chrome/131.0.0.0 Mobile Safari/537.36",
    ],
    [
      "markup in a model's place",
      "Mozilla/5.0 (Linux; Android 14; <img src=x onerror=alert(1)>) Chrome/131 Mobile",
    ],
    [
      "markup without a parenthesis",
      "Mozilla/5.0 (Linux; Android 14; <b onmouseover=alert`1`>SM-S918B</b>) Chrome/131.0 Mobile Safari/537.36",
    ],
    [
      "a model of 60 characters",
      `Mozilla/5.0 (Linux; Android 14; ${"A".repeat(60)}) Chrome/131.0 Mobile Safari/537.36`,
    ],
    [
      "a model too long to be one",
      `Mozilla/5.0 (Linux; Android 14; ${"A".repeat(300)}) Chrome/131.0 Mobile Safari/537.36`,
    ],
    [
      "control characters",
      "Mozilla/5.0 (Linux; Android 14;\u0000 SM-S918B\r\n) Chrome/131.0\u0007 Mobile Safari/537.36",
    ],
    [
      "a version with markup after it",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Version/18.1<script> Safari/604.1",
    ],
    [
      "a version of a hundred digits",
      `Mozilla/5.0 (Windows NT 10.0) Chrome/${"9".repeat(100)}.0 Safari/537.36`,
    ],
    [
      "quotes and backslashes",
      'Mozilla/5.0 (Linux; Android 14; "SM\\",x) Chrome/131.0 Mobile Safari/537.36',
    ],
  ])("%s gives short values of safe characters only", (_, agent) => {
    const device = deviceOf(agent);
    for (const value of Object.values(device ?? {})) {
      expect(value.length).toBeLessThanOrEqual(DEVICE_VALUE_LENGTH);
      expect(value.length).toBeLessThanOrEqual(40);
      expect(value).toMatch(/^[A-Za-z0-9 ._+()-]+$/);
      expect(value).not.toMatch(/script|alert|onerror/);
    }
  });

  it("keeps the safe part of a hostile user agent and no more", () => {
    expect(
      deviceOf(
        "Mozilla/5.0 (Linux; Android 14; <script>alert(1)</script>) Chrome/131.0.0.0 Mobile Safari/537.36",
      ),
    ).toEqual({
      ...android,
      operating_system_version: "14",
      browser: "Chrome",
      browser_version: "131.0.0.0",
    });
    expect(
      deviceOf(`Mozilla/5.0 (Windows NT 10.0) Chrome/${"9".repeat(100)}.0 Safari/537.36`)
        ?.browser_version,
    ).toBe("999999");
  });
});

describe("the user agent as GA4 may read it itself", () => {
  it("is a plausible one as written, else none", () => {
    expect(plausibleUserAgent("Mozilla/5.0 (compatible; SomethingNew/1.0)")).toBe(
      "Mozilla/5.0 (compatible; SomethingNew/1.0)",
    );
    expect(plausibleUserAgent("")).toBeUndefined();
    expect(plausibleUserAgent("Mozilla/5.0\r\nX-Evil: 1")).toBeUndefined();
    expect(plausibleUserAgent("Mozilla/5.0 \u0000")).toBeUndefined();
    expect(plausibleUserAgent("Mozilla/5.0 (ÿ)")).toBeUndefined();
  });
});
