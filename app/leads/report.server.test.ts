import { describe, expect, it } from "vitest";
import type { ChatRecord, LeadRecord } from "~/leads/ledger/ledger.server";
import { leadReport, parseSince, reportCsv, reportText } from "~/leads/report.server";

const NOW = Date.parse("2026-11-25T12:00:00Z");
const DAY = 86_400_000;

function lead(
  id: string,
  campaign: LeadRecord["campaign"],
  more: Partial<LeadRecord> = {},
): LeadRecord {
  return {
    id,
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
const chat = (messageId: string, leadId: string | null, at = NOW - DAY / 2): ChatRecord => ({
  messageId,
  at,
  lead: leadId,
});

describe("parseSince", () => {
  it.each([
    ["7d", NOW - 7 * DAY],
    ["24h", NOW - DAY],
    ["90m", NOW - 90 * 60_000],
    ["2026-11-01", Date.parse("2026-11-01")],
  ])("reads %s", (raw, expected) => {
    expect(parseSince(raw, NOW)).toBe(expected);
  });

  it.each(["", "7", "d7", "1w", "yesterday", "2026-13-45"])("refuses %j", (raw) => {
    expect(parseSince(raw, NOW)).toBeNull();
  });
});

describe("leadReport", () => {
  const leads = [
    lead(
      "a",
      { utm_source: "instagram", utm_medium: "paid", utm_campaign: "Eid" },
      { status: "chat_started" },
    ),
    lead("b", { utm_source: "instagram", utm_medium: "paid", utm_campaign: "Eid" }),
    lead("c", {}, { cta: "email" }),
    lead("old", { utm_source: "instagram" }, { at: NOW - 30 * DAY }),
  ];
  const chats = [chat("w1", "a"), chat("w2", null), chat("w-old", null, NOW - 30 * DAY)];

  it("counts leads and chats by campaign, cta and language for the period, with the chat rate", () => {
    const report = leadReport(leads, chats, NOW - 7 * DAY);
    expect(report.rows).toEqual([
      {
        source: "instagram",
        medium: "paid",
        campaign: "Eid",
        cta: "whatsapp",
        language: "en",
        leads: 2,
        chats: 1,
        qualified: 0,
        installed: 0,
        lost: 0,
        value: 0,
      },
      {
        source: "(none)",
        medium: "(none)",
        campaign: "(none)",
        cta: "email",
        language: "en",
        leads: 1,
        chats: 0,
        qualified: 0,
        installed: 0,
        lost: 0,
        value: 0,
      },
    ]);
    expect(report.chatsWithoutCampaign).toBe(1);
    expect(reportText(report)).toMatch(
      /instagram\s+paid\s+Eid\s+whatsapp\s+en\s+2\s+1\s+50%\s+0\s+0\s+0\s+0$/m,
    );
    expect(reportText(report)).toContain(
      "Total: 3 leads, 1 chats (33%), 0 installed (AED 0); 1 chats without a campaign",
    );
  });

  it("writes CSV a spreadsheet opens as text: quoted, and no cell runs as a formula", () => {
    const hostile = [
      lead("x", { utm_source: '=HYPERLINK("http://evil.example")', utm_campaign: "a,b\nc" }),
    ];
    const csv = reportCsv(leadReport(hostile, [], NOW - 7 * DAY));
    const [header, row] = csv.split("\r\n");
    expect(header).toBe(
      "source,medium,campaign,cta,language,leads,chats,chat rate,qualified,installed,lost,value AED",
    );
    expect(row).toBe(
      `"'=HYPERLINK(""http://evil.example"")",(none),"a,b\nc",whatsapp,en,1,0,0%,0,0,0,0`,
    );
  });

  it("shows a visitor's control characters in the table as a mark, never as themselves", () => {
    const text = reportText(
      leadReport([lead("y", { utm_source: "ig\u001b[2J\u202e" })], [], NOW - 7 * DAY),
    );
    expect(text.includes("\u001b")).toBe(false);
    expect(text.includes("\u202e")).toBe(false);
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
    const report = leadReport(leads, [], NOW - 7 * DAY);
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
    const text = reportText(report);
    expect(text).toMatch(/qualified\s+installed\s+lost\s+value AED$/m);
    expect(text).toMatch(/\s6\s+4\s+67%\s+4\s+2\s+2\s+190$/m);
    expect(text).toContain("Total: 6 leads, 4 chats (67%), 2 installed (AED 190);");
    const [, row] = reportCsv(report).split("\r\n");
    expect(row).toBe("instagram,(none),Eid,whatsapp,en,6,4,67%,4,2,2,190");
  });

  it("sums the installed leads' values in AED as written, without a float's tail", () => {
    const report = leadReport(
      [
        lead("a", eid, { stages: { installed: stage(NOW, 12.1) } }),
        lead("b", eid, { stages: { installed: stage(NOW, 12.2) } }),
      ],
      [],
      NOW - 7 * DAY,
    );
    expect(reportCsv(report).split("\r\n")[1]).toMatch(/,24\.3$/);
    expect(reportText(report)).toContain("2 installed (AED 24.3)");
  });
});
