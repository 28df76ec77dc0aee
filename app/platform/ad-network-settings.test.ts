// TIKTOK_*, SNAP_* and GOOGLE_ADS_*: each network on only with all its required settings, a
// partial set or a bad value named in one line that never shows a secret.

import { describe, expect, it } from "vitest";
import { parseConfig } from "~/platform/config.server";
import { configErrorFor } from "../../tests/support/config-error";

const SECRET = "TOPSECRET1";

const TIKTOK = {
  TIKTOK_PIXEL_CODE: "C4ABCDEFGH12345678",
  TIKTOK_ACCESS_TOKEN: `tt_${SECRET}_0123456789`,
};
const SNAP = {
  SNAP_PIXEL_ID: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
  SNAP_ACCESS_TOKEN: `eyJhbGciOi.${SECRET}.sig0123456789`,
};
const GOOGLE = {
  GOOGLE_ADS_CUSTOMER_ID: "123-456-7890",
  GOOGLE_ADS_CONVERSION_ACTION: "987654321",
  GOOGLE_ADS_DEVELOPER_TOKEN: `dev_${SECRET}_token`,
  GOOGLE_ADS_CLIENT_ID: "1234-abc.apps.googleusercontent.com",
  GOOGLE_ADS_CLIENT_SECRET: `GOCSPX-${SECRET}`,
  GOOGLE_ADS_REFRESH_TOKEN: `1//${SECRET}-refresh`,
};

describe("ad network settings", () => {
  it("are off when unset, and on with the real hosts when set", () => {
    const off = parseConfig({});
    expect([off.tiktok, off.snap, off.googleAds]).toEqual([null, null, null]);
    const on = parseConfig({ ...TIKTOK, ...SNAP, ...GOOGLE });
    expect(on.tiktok).toEqual({
      pixelCode: TIKTOK.TIKTOK_PIXEL_CODE,
      accessToken: TIKTOK.TIKTOK_ACCESS_TOKEN,
      endpoint: "https://business-api.tiktok.com/open_api/v1.3",
    });
    expect(on.snap?.endpoint).toBe("https://tr.snapchat.com/v3");
    expect(on.googleAds).toMatchObject({
      customerId: "1234567890",
      conversionAction: "customers/1234567890/conversionActions/987654321",
      endpoint: "https://googleads.googleapis.com/v26",
      oauthEndpoint: "https://oauth2.googleapis.com/token",
    });
    expect(
      parseConfig({
        ...GOOGLE,
        GOOGLE_ADS_CONVERSION_ACTION: "customers/1234567890/conversionActions/5",
      }).googleAds?.conversionAction,
    ).toBe("customers/1234567890/conversionActions/5");
  });

  it("take loopback stand-ins over http, and nothing else over http", () => {
    const config = parseConfig({
      ...TIKTOK,
      TIKTOK_ENDPOINT: "http://127.0.0.1:9/tt/",
      ...GOOGLE,
      GOOGLE_OAUTH_ENDPOINT: "http://localhost:9/token",
    });
    expect(config.tiktok?.endpoint).toBe("http://127.0.0.1:9/tt");
    expect(config.googleAds?.oauthEndpoint).toBe("http://localhost:9/token");
    expect(configErrorFor({ ...SNAP, SNAP_ENDPOINT: "http://snap.example/v3" }).variable).toBe(
      "SNAP_ENDPOINT",
    );
    expect(
      configErrorFor({ ...GOOGLE, GOOGLE_ADS_ENDPOINT: `http://ads.example/v26?key=${SECRET}` })
        .message,
    ).not.toContain(SECRET);
  });

  it.each([
    [{ TIKTOK_ACCESS_TOKEN: TIKTOK.TIKTOK_ACCESS_TOKEN }, "TIKTOK_PIXEL_CODE"],
    [{ TIKTOK_PIXEL_CODE: TIKTOK.TIKTOK_PIXEL_CODE }, "TIKTOK_ACCESS_TOKEN"],
    [{ SNAP_ACCESS_TOKEN: SNAP.SNAP_ACCESS_TOKEN }, "SNAP_PIXEL_ID"],
    [{ ...GOOGLE, GOOGLE_ADS_REFRESH_TOKEN: "" }, "GOOGLE_ADS_REFRESH_TOKEN"],
    [{ GOOGLE_ADS_CLIENT_SECRET: GOOGLE.GOOGLE_ADS_CLIENT_SECRET }, "GOOGLE_ADS_CUSTOMER_ID"],
  ])("a partial set %j names the missing %s", (env, variable) => {
    const error = configErrorFor(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toMatch(/must be set when/);
    expect(error.message).not.toContain(SECRET);
  });

  it.each([
    [{ ...TIKTOK, TIKTOK_PIXEL_CODE: "C4-ABC DEF" }, "TIKTOK_PIXEL_CODE"],
    [{ ...TIKTOK, TIKTOK_ACCESS_TOKEN: `tt ${SECRET} 0123456789` }, "TIKTOK_ACCESS_TOKEN"],
    [{ ...SNAP, SNAP_PIXEL_ID: "123456" }, "SNAP_PIXEL_ID"],
    [{ ...SNAP, SNAP_ACCESS_TOKEN: `${SECRET} x` }, "SNAP_ACCESS_TOKEN"],
    [{ ...GOOGLE, GOOGLE_ADS_CUSTOMER_ID: "123-456-789" }, "GOOGLE_ADS_CUSTOMER_ID"],
    [{ ...GOOGLE, GOOGLE_ADS_CONVERSION_ACTION: "Lead form" }, "GOOGLE_ADS_CONVERSION_ACTION"],
    [{ ...GOOGLE, GOOGLE_ADS_DEVELOPER_TOKEN: `${SECRET}!` }, "GOOGLE_ADS_DEVELOPER_TOKEN"],
    [{ ...GOOGLE, GOOGLE_ADS_CLIENT_ID: "1234-abc" }, "GOOGLE_ADS_CLIENT_ID"],
    [{ ...GOOGLE, GOOGLE_ADS_CLIENT_SECRET: `${SECRET} x` }, "GOOGLE_ADS_CLIENT_SECRET"],
    [{ ...GOOGLE, GOOGLE_ADS_REFRESH_TOKEN: `1// ${SECRET}` }, "GOOGLE_ADS_REFRESH_TOKEN"],
  ])("a malformed value names %s without showing a secret", (env, variable) => {
    const error = configErrorFor(env);
    expect(error.variable).toBe(variable);
    expect(error.message).not.toContain(SECRET);
  });
});
