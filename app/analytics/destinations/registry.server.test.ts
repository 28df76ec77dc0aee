// The registry: the destinations the settings turn on, in the privacy notice's order; a network
// added by one module (a stand-in only the tests have); and every variable they read.
import { describe, expect, it, onTestFinished, vi } from "vitest";
import type { Destination } from "~/analytics/destinations/destination.server";
import { ga4 } from "~/analytics/destinations/ga4.server";
import { google } from "~/analytics/destinations/google.server";
import { meta } from "~/analytics/destinations/meta.server";
import {
  destinationNames,
  destinationSettingNames,
  readDestinations,
} from "~/analytics/destinations/registry.server";
import { snap } from "~/analytics/destinations/snap.server";
import { tiktok } from "~/analytics/destinations/tiktok.server";
import { ConfigError, read } from "~/platform/setting-readers.server";

const GA = { GA_MEASUREMENT_ID: "G-ABC123XYZ9", GA_API_SECRET: "s3cret_value-1" };
const META = { META_PIXEL_ID: "123456789012345", META_ACCESS_TOKEN: "EAAB_test_token_0123456789" };
const TIKTOK = {
  TIKTOK_PIXEL_CODE: "C4ABCDEFGH12345678",
  TIKTOK_ACCESS_TOKEN: "tt_token_0123456789",
};
const SNAP = {
  SNAP_PIXEL_ID: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
  SNAP_ACCESS_TOKEN: "snap-token-0123456789abcdef",
};
const GOOGLE = {
  GOOGLE_ADS_CUSTOMER_ID: "123-456-7890",
  GOOGLE_ADS_CONVERSION_ACTION: "987654321",
  GOOGLE_ADS_CLIENT_ID: "1234-abc.apps.googleusercontent.com",
  GOOGLE_ADS_CLIENT_SECRET: "GOCSPX-client-secret",
  GOOGLE_ADS_REFRESH_TOKEN: "1//refresh-token-0123456789",
};
const WHATSAPP = {
  WHATSAPP_VERIFY_TOKEN: "verify-token-1",
  WHATSAPP_APP_SECRET: "0123456789abcdef0123456789abcdef",
  WHATSAPP_ACCESS_TOKEN: "EAAG_system_user_token_0123456789",
  WHATSAPP_PHONE_NUMBER_ID: "106540352242922",
};
const EVERY = { ...GA, ...META, ...TIKTOK, ...SNAP, ...GOOGLE, ...WHATSAPP };
const BUILT_IN = ["ga4", "meta", "tiktok", "snap", "google_ads", "whatsapp"];

/** A network only the tests have: on with STANDIN_URL, its tap one call to it. */
const standIn: Destination<{ url: string }> = {
  name: "standin",
  settings: {
    names: ["STANDIN_URL"],
    read: (env) => {
      const url = read(env, "STANDIN_URL");
      return url ? { url } : null;
    },
  },
  maxAgeMs: 86_400_000,
  deduplicates: true,
  secrets: () => [],
  moments: () => new Set(["tap"]),
  tap: (settings, facts) => [
    {
      destination: "standin",
      url: settings.url,
      body: "{}",
      events: 1,
      at: facts.at,
      lead: facts.id,
    },
  ],
};

describe("the destination registry", () => {
  it("turns on none without settings, and those configured in the privacy notice's order", () => {
    expect(readDestinations({})).toEqual([]);
    expect(readDestinations({ ...GOOGLE, ...GA }).map((on) => on.name)).toEqual([
      "ga4",
      "google_ads",
    ]);
    expect(readDestinations(EVERY).map((on) => on.name)).toEqual(BUILT_IN);
    expect(destinationNames().slice(0, BUILT_IN.length)).toEqual(BUILT_IN);
  });

  it("hands each one its settings read", () => {
    const [on] = readDestinations({ ...SNAP, SNAP_SEND: "chat" });
    expect(on).toMatchObject({ name: "snap", secrets: [SNAP.SNAP_ACCESS_TOKEN] });
    expect(on?.tap).toBeUndefined();
    expect(on?.chat).toBeTypeOf("function");
  });

  it("stops at a bad setting, naming it", () => {
    const readBad = () => readDestinations({ ...GA, META_PIXEL_ID: "123456789012345" });
    expect(readBad).toThrow(ConfigError);
    expect(readBad).toThrow(/^META_ACCESS_TOKEN must be set/);
  });

  it("lists every variable each destination reads, once", () => {
    const names = [ga4, meta, tiktok, snap, google].flatMap((one) => one.settings.names);
    expect(destinationSettingNames().slice(0, names.length)).toEqual(names);
    expect(new Set(names).size).toBe(names.length);
    for (const name of [
      "GA_MP_ENDPOINT",
      "META_WHATSAPP_DATASET_ID",
      "META_TEST_EVENT_CODE",
      "META_SEND",
      "TIKTOK_TEST_EVENT_CODE",
      "SNAP_SEND",
      "GOOGLE_ADS_LOGIN_CUSTOMER_ID",
      "GOOGLE_ADS_INSTALLED_CONVERSION_ACTION",
      "GOOGLE_DATA_MANAGER_ENDPOINT",
      "GOOGLE_ADS_SEND",
    ]) {
      expect(names).toContain(name);
    }
  });

  it("takes a new network as one module, after the others, and refuses a second of a name", async () => {
    // A registry of this test's own: unit files share loaded modules, and the stand-in must not
    // reach the files after this one (the privacy notice has no words for it).
    vi.resetModules();
    const own = await import("~/analytics/destinations/registry.server");
    onTestFinished(() => {
      vi.resetModules();
    });
    own.registerDestination(standIn);
    expect(own.destinationNames()).toEqual([...BUILT_IN, "standin"]);
    expect(own.destinationSettingNames().at(-1)).toBe("STANDIN_URL");
    expect(own.readDestinations({ ...META }).map((on) => on.name)).toEqual(["meta"]);
    const on = own.readDestinations({ ...EVERY, STANDIN_URL: "http://127.0.0.1:9/standin" });
    expect(on.map((one) => one.name)).toEqual([...BUILT_IN, "standin"]);
    expect(on.at(-1)?.tap?.({ id: "lead-1", at: 5 } as never)).toEqual([
      {
        destination: "standin",
        url: "http://127.0.0.1:9/standin",
        body: "{}",
        events: 1,
        at: 5,
        lead: "lead-1",
      },
    ]);
    expect(() => own.registerDestination(standIn)).toThrow(/named standin is registered already/);
    expect(() => own.registerDestination({ ...standIn, name: "meta" })).toThrow(/named meta/);
    expect(own.destinationNames()).toEqual([...BUILT_IN, "standin"]);
  });
});
