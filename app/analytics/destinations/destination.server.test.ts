// What every destination shares: the *_SEND setting, a network's own part of a campaign, the
// ids of a lead's later moments, and configure() turning a module and its settings into what the
// site sends.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  configure,
  type Destination,
  externalId,
  MOMENTS,
  momentId,
  ownCampaign,
  readMoments,
  type TapFacts,
  userAgentOf,
} from "~/analytics/destinations/destination.server";
import { ConfigError } from "~/platform/setting-readers.server";
import type { Campaign } from "~/shared/campaign";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("readMoments", () => {
  it("is the tap, the chat and the stages while unset or blank", () => {
    expect([...readMoments({}, "X_SEND")]).toEqual([...MOMENTS]);
    expect([...readMoments({ X_SEND: "  " }, "X_SEND")]).toEqual(["tap", "chat", "stages"]);
  });

  it("takes a comma list, in any case and spacing", () => {
    expect(readMoments({ X_SEND: "chat" }, "X_SEND")).toEqual(new Set(["chat"]));
    expect(readMoments({ X_SEND: " Chat , STAGES " }, "X_SEND")).toEqual(
      new Set(["chat", "stages"]),
    );
  });

  it.each([["tap,click"], ["taps"], ["chat,,stages"], ["all"]])(
    "refuses %j, naming the setting",
    (value) => {
      const read = () => readMoments({ X_SEND: value }, "X_SEND");
      expect(read).toThrow(ConfigError);
      expect(read).toThrow(/^X_SEND must list what is sent, from tap, chat and stages/);
    },
  );
});

describe("ownCampaign", () => {
  const EVERY_CLICK: Campaign = {
    utm_source: "tiktok",
    utm_campaign: "Eid",
    gclid: "g-1",
    gbraid: "gb-1",
    wbraid: "wb-1",
    fbclid: "fb-1",
    ttclid: "tt-1",
    ScCid: "sc-1",
  };

  it("keeps the campaign's words and the network's own click ids, never another network's", () => {
    expect(ownCampaign(EVERY_CLICK, ["ttclid"])).toEqual({
      utm_source: "tiktok",
      utm_campaign: "Eid",
      ttclid: "tt-1",
    });
    expect(ownCampaign(EVERY_CLICK, ["gclid", "gbraid", "wbraid"])).toEqual({
      utm_source: "tiktok",
      utm_campaign: "Eid",
      gclid: "g-1",
      gbraid: "gb-1",
      wbraid: "wb-1",
    });
    expect(ownCampaign(EVERY_CLICK, [])).toEqual({ utm_source: "tiktok", utm_campaign: "Eid" });
  });

  it("leaves the lead's own campaign as it was", () => {
    const campaign = { ...EVERY_CLICK };
    ownCampaign(campaign, ["fbclid"]);
    expect(campaign).toEqual(EVERY_CLICK);
  });
});

describe("the ids and matching keys of a lead", () => {
  it("gives a later moment its lead's id and the moment's name, the same on every retry", () => {
    expect(momentId("0192f4a0-lead", "chat")).toBe("0192f4a0-lead.chat");
    expect(momentId("0192f4a0-lead", "qualified")).toBe("0192f4a0-lead.qualified");
    expect(momentId("0192f4a0-lead", "installed")).toBe("0192f4a0-lead.installed");
  });

  it("hashes the client id into external_id, and takes a user agent up to 1024 characters", () => {
    expect(externalId("111.222")).toBe(sha256("111.222"));
    expect(userAgentOf({ userAgent: "x".repeat(1024) })).toBe("x".repeat(1024));
    expect(userAgentOf({ userAgent: "x".repeat(1025) })).toBeUndefined();
    expect(userAgentOf({ userAgent: "" })).toBeUndefined();
  });
});

describe("configure", () => {
  type StandIn = { token: string; moments: Set<"tap" | "chat" | "stages"> };
  const call = (body: string) => ({
    destination: "standin",
    url: "https://x.test/",
    body,
    events: 1,
    at: 1,
  });
  const standIn: Destination<StandIn> = {
    name: "standin",
    settings: { names: ["STANDIN_TOKEN", "STANDIN_SEND"], read: () => null },
    maxAgeMs: 1000,
    deduplicates: true,
    secrets: (settings) => [settings.token],
    moments: (settings) => settings.moments,
    warnings: (settings) => [`token ${settings.token.length} long`],
    tap: (_settings, facts) => [call(`tap ${facts.id}`)],
    chat: () => [call("chat")],
    stage: (_settings, facts) => [call(`stage ${facts.stage}`)],
    events: (_settings, batch) => [call(`events ${batch.events.length}`)],
  };
  const tap = { id: "lead-1" } as TapFacts;

  it("turns a network set to the chat only into one with no tap and no stages", () => {
    const configured = configure<StandIn>(standIn, {
      token: "t0ken-long",
      moments: new Set(["chat"]),
    });
    expect(configured.tap).toBeUndefined();
    expect(configured.stage).toBeUndefined();
    expect(configured.chat).toBeTypeOf("function");
    expect([...configured.moments]).toEqual(["chat"]);
    // The site's own events are not a moment: a destination that takes them always does.
    expect(configured.events?.({ clientId: "1.2", events: [], at: 1 })).toEqual([call("events 0")]);
  });

  it("hands each moment's facts to the module with its settings, and says its name, limits and secrets", () => {
    const configured = configure<StandIn>(standIn, {
      token: "t0ken-long",
      moments: new Set(["tap", "chat", "stages"]),
    });
    expect(configured).toMatchObject({
      name: "standin",
      maxAgeMs: 1000,
      deduplicates: true,
      secrets: ["t0ken-long"],
      warnings: ["token 10 long"],
    });
    expect(configured.tap?.(tap)).toEqual([call("tap lead-1")]);
    expect(
      configured.stage?.({ stage: "installed" } as Parameters<
        NonNullable<typeof configured.stage>
      >[0]),
    ).toEqual([call("stage installed")]);
    // Without its own, a destination is sent as any: no stamp, no token, judged by status.
    expect(configured.sending({})).toEqual({});
  });
});
