// The user agents the tests send, each written once. The strings are exact: tests append to them
// (a counter, so each request is a new visitor), replace parts of them, or expect the server to
// read them as a person or a crawler, so a change here is a change to every test's input.

/** iPhone Safari on iOS 17.0: the built-server tests' phone. */
export const IPHONE_SAFARI_17 =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";

/** iPhone Safari on iOS 17.5: the phone the e2e landing test browses as. */
export const IPHONE_SAFARI_17_5 =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/** iPhone Safari on iOS 18.5: the visitors', replicas' and nginx tests' phone. */
export const IPHONE_SAFARI_18 =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1";

/** iPhone Safari on iOS 18.1: GA4's device tests' phone. */
export const IPHONE_SAFARI_18_1 =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

/** Samsung Internet on a Galaxy S23 Ultra, naming its model as Samsung's browser once did. */
export const SAMSUNG_INTERNET =
  "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36";

/** The least a raw request line needs to be a phone's: iPhone and Safari, nothing else. */
export const IPHONE_SAFARI_MINIMAL = "Mozilla/5.0 (iPhone) Safari/604.1";

/** Android Chrome on a Pixel 7: the child-server tests' browser. */
export const ANDROID_CHROME =
  "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";

/** Google's crawler as it announces itself on the web. */
export const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/** Google's crawler, its bare token (no Mozilla/5.0 in front). */
export const GOOGLEBOT_BARE = "Googlebot/2.1 (+http://www.google.com/bot.html)";

/** Bing's crawler. */
export const BINGBOT = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";

/** Link previews: WhatsApp, Facebook and X (Twitter) fetching a shared link. */
export const WHATSAPP_PREVIEW = "WhatsApp/2.23.20.0 A";
export const FACEBOOK_PREVIEW =
  "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)";
export const TWITTER_PREVIEW = "Twitterbot/1.0";

/** A script, not a browser. */
export const CURL = "curl/8.5.0";
