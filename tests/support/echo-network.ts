// A network that exists only in the tests, added to the site as one module and nothing else
// (docs/decisions/025-destination-registry.md): on with ECHO_ENDPOINT, it posts every moment of a
// lead it is told of, with the lead's id and the phone's hash, to a stand-in that keeps them.
import type {
  ChatFacts,
  Destination,
  StageFacts,
  TapFacts,
} from "~/analytics/destinations/destination.server";
import type { NewCall } from "~/leads/ledger/ledger.server";

type EchoSettings = { endpoint: string };

const call = (settings: EchoSettings, body: object, at: number, lead?: string): NewCall => ({
  destination: "echo",
  url: `${settings.endpoint}/moments`,
  body: JSON.stringify(body),
  events: 1,
  at,
  ...(lead ? { lead } : {}),
});

export const echoNetwork: Destination<EchoSettings> = {
  name: "echo",
  settings: {
    names: ["ECHO_ENDPOINT"],
    read: (env) => (env.ECHO_ENDPOINT ? { endpoint: env.ECHO_ENDPOINT } : null),
  },
  maxAgeMs: 86_400_000,
  deduplicates: true,
  secrets: () => [],
  moments: () => new Set(["tap", "chat", "stages"] as const),
  tap: (settings, lead: TapFacts) => [
    call(settings, { moment: "tap", lead: lead.id, value: lead.value }, lead.at, lead.id),
  ],
  chat: (settings, { chat, lead, phone }: ChatFacts) =>
    lead
      ? [call(settings, { moment: "chat", lead: lead.id, phone: phone?.e164 }, chat.at, lead.id)]
      : [],
  stage: (settings, facts: StageFacts) => [
    call(
      settings,
      { moment: facts.stage, lead: facts.lead.id, value: facts.value, phone: facts.phone?.e164 },
      facts.at,
      facts.lead.id,
    ),
  ],
  privacy: {
    en: { heading: "Echo (a test network)", body: ["It hears every moment of a lead."], chat: "" },
    ar: { heading: "صدى (شبكة للاختبار)", body: ["تسمع كل مرحلة من مراحل الطلب."], chat: "" },
  },
};
