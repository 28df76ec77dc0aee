import { describe, expect, it } from "vitest";
import type { ChatRecord, LeadRecord } from "~/leads/ledger/ledger.server";
import { COLUMNS, leadReport, reportCsv, reportText } from "~/leads/report.server";
import type { Period } from "~/leads/report-period.server";

// 16:00 in Dubai on 25 November.
const NOW = Date.parse("2026-11-25T12:00:00Z");
const DAY = 86_400_000;
const LAST_WEEK: Period = { from: NOW - 7 * DAY, to: null };
const LEDGER = "read from the ledger at /data";

function lead(
  id: string,
  campaign: LeadRecord["campaign"],
  more: Partial<LeadRecord> = {},
): LeadRecord {
  return {
    id,
    // 16:00 in Dubai on 24 November.
    at: NOW - DAY,
    cta: "whatsapp",
    language: "en",
    campaign,
    clientId: "1.2",
    sessionId: "3",
    status: "new",
    ...more,
  };
}
const chat = (
  messageId: string,
  leadId: string | null,
  at = NOW - DAY / 2,
  more: Partial<ChatRecord> = {},
): ChatRecord => ({ messageId, at, lead: leadId, ...more });

const zero = { linksSent: 0, shares: 0, qualified: 0, installed: 0, lost: 0, value: 0 };

describe("leadReport", () => {
  const eid = { utm_source: "instagram", utm_medium: "paid", utm_campaign: "Eid" };
  const leads = [
    lead(
      "a",
      { ...eid, utm_content: "reel_a", utm_term: "driving app" },
      {
        status: "chat_started",
        plan: "plus",
        placement: "hero",
      },
    ),
    lead(
      "b",
      { ...eid, utm_content: "reel_a", utm_term: "driving app" },
      {
        plan: "plus",
        placement: "hero",
      },
    ),
    lead("c", {}, { cta: "email" }),
    lead("old", { utm_source: "instagram" }, { at: NOW - 30 * DAY }),
  ];
  const chats = [chat("w1", "a"), chat("w2", null), chat("w-old", null, NOW - 30 * DAY)];

  it("counts leads and chats by day, campaign, ad, keyword, cta, plan, button and language", () => {
    const report = leadReport(leads, chats, LAST_WEEK, NOW);
    expect(report.rows).toEqual([
      {
        kind: "lead",
        day: "2026-11-24",
        source: "instagram",
        medium: "paid",
        campaign: "Eid",
        content: "reel_a",
        term: "driving app",
        cta: "whatsapp",
        plan: "plus",
        placement: "hero",
        language: "en",
        leads: 2,
        chats: 1,
        ...zero,
      },
      {
        kind: "lead",
        day: "2026-11-24",
        source: "(none)",
        medium: "(none)",
        campaign: "(none)",
        content: "(none)",
        term: "(none)",
        cta: "email",
        plan: "(none)",
        placement: "(none)",
        language: "en",
        leads: 1,
        chats: 0,
        ...zero,
      },
    ]);
    expect(report.chatsWithoutCampaign).toBe(1);
    const text = reportText(report, LEDGER);
    expect(text).toMatch(
      /^lead\s+2026-11-24\s+instagram\s+paid\s+Eid\s+reel_a\s+driving app\s+whatsapp\s+plus\s+hero\s+en\s+2\s+1\s+50%\s+0\s+0\s+0\s+0\s+0\s+0$/m,
    );
    expect(text).toContain(
      "Total: 3 leads, 1 chats (33%), 0 installed (AED 0); 0 chats from Click-to-WhatsApp ads without a site lead; 1 chats without a campaign; 0 shares (not leads)",
    );
  });

  it("says the period in Dubai time and where it read from, in its first line", () => {
    const report = leadReport(
      leads,
      chats,
      { from: Date.parse("2026-11-23T20:00:00Z"), to: Date.parse("2026-11-24T20:00:00Z") },
      NOW,
    );
    expect(reportText(report, LEDGER).split("\n")[0]).toBe(
      "Leads from 2026-11-24 00:00 to 2026-11-24 24:00 Dubai time (UTC+4), read from the ledger at /data",
    );
    expect(
      reportText(leadReport([], [], LAST_WEEK, NOW), "read from Redis (every replica)"),
    ).toMatch(
      /^Leads from 2026-11-18 16:00 to now \(2026-11-25 16:00\) Dubai time \(UTC\+4\), read from Redis \(every replica\)\n/,
    );
  });

  it("counts a lead on its Dubai day: 19:59:59 and 20:00:00 UTC are two days, and --until is not included", () => {
    const before = Date.parse("2026-11-23T19:59:59Z");
    const after = Date.parse("2026-11-23T20:00:00Z");
    const lastOfDay = Date.parse("2026-11-24T19:59:59.999Z");
    const nextDay = Date.parse("2026-11-24T20:00:00Z");
    const around = [
      lead("before", eid, { at: before }),
      lead("after", eid, { at: after }),
      lead("last", eid, { at: lastOfDay }),
      lead("next", eid, { at: nextDay }),
    ];
    const all = leadReport(around, [], { from: null, to: null }, NOW);
    expect(all.rows.map((row) => [row.day, row.leads])).toEqual([
      ["2026-11-23", 1],
      ["2026-11-24", 2],
      ["2026-11-25", 1],
    ]);
    const the24th = leadReport(around, [], { from: after, to: nextDay }, NOW);
    expect(the24th.rows.map((row) => [row.day, row.leads])).toEqual([["2026-11-24", 2]]);
  });

  it("keeps a lead's chat with its lead's day, and counts chats without a lead in the period", () => {
    const period = { from: NOW - 2 * DAY, to: NOW - DAY / 2 };
    const report = leadReport(
      [lead("a", eid)],
      [
        // The lead's chat came after the period closed: still its lead's.
        chat("w1", "a", NOW),
        chat("inside", null, NOW - DAY),
        chat("after", null, NOW - DAY / 2),
      ],
      period,
      NOW,
    );
    expect(report.rows[0]).toMatchObject({ leads: 1, chats: 1 });
    expect(report.chatsWithoutCampaign).toBe(1);
  });

  it("writes CSV with the table's columns, a spreadsheet opens as text: quoted, and no cell runs as a formula", () => {
    const hostile = [
      lead("x", { utm_source: '=HYPERLINK("http://evil.example")', utm_campaign: "a,b\nc" }),
    ];
    const csv = reportCsv(leadReport(hostile, [], LAST_WEEK, NOW));
    const [header, row, end] = csv.split("\r\n");
    expect(header).toBe(
      "kind,day,source,medium,campaign,content,term,cta,plan,placement,language,leads,chats,chat rate,links sent,shares,qualified,installed,lost,value AED",
    );
    expect(row).toBe(
      `lead,2026-11-24,"'=HYPERLINK(""http://evil.example"")",(none),"a,b\nc",(none),(none),whatsapp,(none),(none),en,1,0,0%,0,0,0,0,0,0`,
    );
    expect(end).toBe("");
    // The table has the same columns, in the same order.
    const table = reportText(leadReport(hostile, [], LAST_WEEK, NOW), LEDGER).split("\n")[2];
    expect(table?.split(/\s{2,}/)).toEqual(COLUMNS);
  });

  it("shows a visitor's control characters in the table as a mark, never as themselves", () => {
    const text = reportText(
      leadReport([lead("y", { utm_source: "ig\u001b[2J\u202e" })], [], LAST_WEEK, NOW),
      LEDGER,
    );
    expect(text.includes("\u001b")).toBe(false);
    expect(text.includes("\u202e")).toBe(false);
  });
});

describe("shares", () => {
  const eid = { utm_source: "instagram", utm_campaign: "Eid" };
  const leads = [
    lead("l1", eid),
    lead("s1", eid, { cta: "link" }),
    lead("s2", eid, { cta: "link" }),
    lead("s3", {}, { cta: "link", status: "chat_started" }),
  ];

  it("are never leads: rows of their own, counted as shares, outside the lead total", () => {
    const report = leadReport(leads, [], LAST_WEEK, NOW);
    expect(
      report.rows.map((row) => [row.kind, row.source, row.cta, row.leads, row.shares]),
    ).toEqual([
      ["lead", "instagram", "whatsapp", 1, 0],
      ["share", "instagram", "link", 0, 2],
      ["share", "(none)", "link", 0, 1],
    ]);
    expect(report.rows.find((row) => row.kind === "share" && row.chats > 0)).toBeUndefined();
    const text = reportText(report, LEDGER);
    expect(text).toContain("Total: 1 leads, 0 chats (0%),");
    expect(text).toContain("; 3 shares (not leads)");
    // A blank line sets the shares apart from the leads.
    expect(text).toMatch(/^lead .*\n\nshare .*\nshare /m);
    const rows = reportCsv(report).split("\r\n").slice(1, -1);
    expect(rows).toEqual([
      "lead,2026-11-24,instagram,(none),Eid,(none),(none),whatsapp,(none),(none),en,1,0,0%,0,0,0,0,0,0",
      "share,2026-11-24,instagram,(none),Eid,(none),(none),link,(none),(none),en,0,0,,0,2,0,0,0,0",
      "share,2026-11-24,(none),(none),(none),(none),(none),link,(none),(none),en,0,0,,0,1,0,0,0,0",
    ]);
  });
});

describe("chats from Click-to-WhatsApp ads", () => {
  const ad = (sourceId: string, headline?: string) => ({
    sourceId,
    sourceType: "ad" as const,
    ...(headline ? { headline } : {}),
  });
  const chats = [
    chat("c1", null, NOW - DAY, {
      ctwaClid: "click-1",
      referral: ad("120226305854810726", "Chat with us"),
    }),
    chat("c2", null, NOW - DAY, {
      ctwaClid: "click-2",
      referral: ad("120226305854810726", "Chat with us"),
    }),
    chat("c3", null, NOW - DAY, { referral: { sourceId: "615533673545722", sourceType: "post" } }),
    // An ad's click without the ad's details (a chat kept before they were).
    chat("c4", null, NOW - DAY, { ctwaClid: "click-4" }),
    // A lead's chat from an ad is its lead's, not the ad's row.
    chat("c5", "l1", NOW - DAY, {
      ctwaClid: "click-5",
      referral: ad("120226305854810726", "Chat with us"),
    }),
    chat("stranger", null, NOW - DAY),
  ];

  it("are their ad's rows: source whatsapp ad, the headline as campaign, the ad's id as content", () => {
    const report = leadReport([lead("l1", { utm_source: "ig" })], chats, LAST_WEEK, NOW);
    const adRows = report.rows.filter((row) => row.kind === "ad chat");
    expect(adRows).toEqual([
      {
        kind: "ad chat",
        day: "2026-11-24",
        source: "whatsapp ad",
        medium: "(none)",
        campaign: "Chat with us",
        content: "120226305854810726",
        term: "(none)",
        cta: "whatsapp",
        plan: "(none)",
        placement: "(none)",
        language: "(none)",
        leads: 0,
        chats: 2,
        ...zero,
      },
      expect.objectContaining({
        source: "whatsapp ad",
        campaign: "(none)",
        content: "(none)",
        chats: 1,
      }),
      expect.objectContaining({ source: "whatsapp post", content: "615533673545722", chats: 1 }),
    ]);
    expect(report.rows[0]).toMatchObject({ kind: "lead", source: "ig", leads: 1, chats: 1 });
    expect(report.chatsWithoutCampaign).toBe(1);
    const text = reportText(report, LEDGER);
    expect(text).toMatch(
      /^ad chat\s+2026-11-24\s+whatsapp ad\s+\(none\)\s+Chat with us\s+120226305854810726\s+\(none\)\s+whatsapp\s+\(none\)\s+\(none\)\s+\(none\)\s+0\s+2\s+0\s+0\s+0\s+0\s+0\s+0$/m,
    );
    expect(text).toContain(
      "Total: 1 leads, 1 chats (100%), 0 installed (AED 0); 4 chats from Click-to-WhatsApp ads without a site lead; 1 chats without a campaign;",
    );
    expect(reportCsv(report).split("\r\n")).toContain(
      "ad chat,2026-11-24,whatsapp ad,(none),Chat with us,120226305854810726,(none),whatsapp,(none),(none),(none),0,2,,0,0,0,0,0,0",
    );
  });
});

describe("the stages' columns", () => {
  const stage = (at: number, value = 0) => ({ at, value });
  const eid = { utm_source: "instagram", utm_campaign: "Eid" };
  // Marked whenever the team did: the stage's own time is not the period's.
  const leads = [
    lead("q", eid, { status: "chat_started", stages: { qualified: stage(NOW) } }),
    lead("i", eid, {
      status: "chat_started",
      stages: { qualified: stage(NOW - DAY), installed: stage(NOW, 150) },
    }),
    lead("i2", eid, { status: "chat_started", stages: { installed: stage(NOW, 40) } }),
    lead("l", eid, { status: "chat_started", stages: { lost: stage(NOW) } }),
    lead("ql", eid, { stages: { qualified: stage(NOW), lost: stage(NOW) } }),
    lead("n", eid),
    lead("old", eid, { at: NOW - 30 * DAY, stages: { installed: stage(NOW, 1000) } }),
  ];

  it("counts qualified (installed ones too), installed, lost and what the installed were worth", () => {
    const report = leadReport(leads, [], LAST_WEEK, NOW);
    expect(report.rows).toEqual([
      expect.objectContaining({
        source: "instagram",
        campaign: "Eid",
        leads: 6,
        chats: 4,
        qualified: 4,
        installed: 2,
        lost: 2,
        value: 190,
      }),
    ]);
    const text = reportText(report, LEDGER);
    expect(text).toMatch(/qualified\s+installed\s+lost\s+value AED$/m);
    expect(text).toMatch(/\s6\s+4\s+67%\s+0\s+0\s+4\s+2\s+2\s+190$/m);
    expect(text).toContain("Total: 6 leads, 4 chats (67%), 2 installed (AED 190);");
    const [, row] = reportCsv(report).split("\r\n");
    expect(row).toBe(
      "lead,2026-11-24,instagram,(none),Eid,(none),(none),whatsapp,(none),(none),en,6,4,67%,0,0,4,2,2,190",
    );
  });

  it("counts the leads WhatsApp took the automatic reply for, with its link, as links sent", () => {
    const report = leadReport(
      [
        lead("s1", eid, { status: "chat_started", linkSentAt: NOW }),
        lead("s2", eid, { status: "chat_started", linkSentAt: NOW, stages: { lost: stage(NOW) } }),
        lead("c", eid, { status: "chat_started" }),
        lead("n", eid),
      ],
      [],
      LAST_WEEK,
      NOW,
    );
    expect(report.rows).toEqual([expect.objectContaining({ leads: 4, chats: 3, linksSent: 2 })]);
    expect(reportText(report, LEDGER)).toMatch(/chat rate\s+links sent\s+shares/);
    expect(reportCsv(report).split("\r\n")[1]).toMatch(/,4,3,75%,2,0,/);
  });

  it("sums the installed leads' values in AED as written, without a float's tail", () => {
    const report = leadReport(
      [
        lead("a", eid, { stages: { installed: stage(NOW, 12.1) } }),
        lead("b", eid, { stages: { installed: stage(NOW, 12.2) } }),
      ],
      [],
      LAST_WEEK,
      NOW,
    );
    expect(reportCsv(report).split("\r\n")[1]).toMatch(/,24\.3$/);
    expect(reportText(report, LEDGER)).toContain("2 installed (AED 24.3)");
  });
});
