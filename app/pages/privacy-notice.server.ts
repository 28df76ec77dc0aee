import type { PrivacyWords } from "~/analytics/destinations/destination.server";
import type { Copy } from "~/content/copy.server";
import { heads } from "~/content/heads";
import { CAMPAIGN_COOKIE, FBP_COOKIE } from "~/leads/attribution-cookies.server";
import { runningExperiment } from "~/leads/variant-credit.server";
import {
  blocksOf,
  companyBlocks,
  emailLink,
  type LegalContext,
  type LegalDocument,
  type LegalSection,
  rich,
  updatedLine,
} from "~/pages/legal-text.server";
import type { Config } from "~/platform/config.server";
import { BETA_START_KEY } from "~/shared/countdown";
import { CLIENT_EVENTS, type PageEventName, type ServerEventName } from "~/shared/events";
import { EXPOSURE_EVENT } from "~/shared/experiment";
import { HINT_COOKIE } from "~/shared/language-cookie";
import { LOCALE_INFO, type Locale } from "~/shared/locale";
import { counted } from "~/shared/plural";
import { countingFor } from "~/shared/plural.server";

/**
 * The services the notice names: each destination the settings turn on, in the registry's
 * order (analytics/destinations/registry.server.ts), in the words content/legal.ts gives it in
 * each language (the compiler asks for both), or, for a network only the tests have, its own.
 */
export function recipientsOn(
  config: Config,
  copy: Copy,
  locale: Locale,
): Array<{ id: string; words: PrivacyWords }> {
  const services: Partial<Record<string, PrivacyWords>> = copy.legal.privacy.services;
  return config.destinations.flatMap((destination) => {
    const words = services[destination.name] ?? destination.privacy?.[locale];
    return words ? [{ id: destination.name, words }] : [];
  });
}

/**
 * Every event the site records, as the code names them: the browser's, then the server's. The
 * experiment's impression is told of apart, only while one runs.
 */
export const RECORDED_EVENTS: readonly (PageEventName | ServerEventName)[] = [
  ...CLIENT_EVENTS,
  "generate_lead",
  "conversion",
];

/** A reference in the form a WhatsApp message carries (leads/chat-ref.ts; its test checks it). */
export const EXAMPLE_REF = "DRB-7K2QX";
/** What GA4 gets when a lead's chat begins (leads/whatsapp-webhook.server.ts). */
const CHAT_EVENT = "working_lead";
/** The header Global Privacy Control sends (leads/visitor.server.ts, mayTrack). */
const GPC_HEADER = "Sec-GPC: 1";

/** The chat's automatic reply (analytics/destinations/whatsapp-reply.server.ts), by its name. */
const REPLY_DESTINATION = "whatsapp";

/**
 * What the webhook keeps of a chat, then what becomes of the driver's number: hashed only, or
 * also sealed for the automatic reply while that is on (it needs the webhook).
 */
function webhookParagraph(words: Copy["legal"]["privacy"]["chat"], replying: boolean) {
  const number = replying ? words.numberReplying : words.number;
  return rich(`${words.webhook} ${number}`, { hash: { code: "SHA-256" } });
}

/**
 * The privacy notice for this server: what the site records and sends, from its code and its
 * settings (the services that are on, the webhook, the proxy, the retention, the contact
 * address and the company), in the page's language (docs/decisions/017-what-the-site-says-about-itself.md).
 */
export function privacyNotice({ copy, locale, config }: LegalContext): LegalDocument {
  const words = copy.legal.privacy;
  const email = emailLink(config.contactEmail);
  const on = recipientsOn(config, copy, locale);
  const webhook = config.whatsapp !== null;
  const replying = config.destinations.some(({ name }) => name === REPLY_DESTINATION);
  const section = (id: string, heading: string, blocks: LegalSection["blocks"]) => ({
    id,
    heading,
    blocks,
  });

  const services = on.map(({ id, words: service }) => {
    const blocks = blocksOf(service.body, {
      hash: { code: "SHA-256" },
      fbclid: { code: "fbclid" },
      fbc: { code: "fbc" },
      fbp: { code: FBP_COOKIE },
      ttclid: { code: "ttclid" },
      ScCid: { code: "ScCid" },
      gclid: { code: "gclid" },
    });
    if (webhook) {
      blocks.push({
        paragraph: rich(service.chat, { event: { code: CHAT_EVENT }, hash: { code: "SHA-256" } }),
      });
    }
    // Only while the team can tell the site what became of a lead (api/leads/stage).
    if (config.leadsApiToken && service.stages) {
      blocks.push({ paragraph: rich(service.stages) });
    }
    return section(id, service.heading, blocks);
  });

  const retention = counted(
    countingFor(LOCALE_INFO[locale].intl),
    config.leadRetentionDays,
    words.leads.retention,
  );

  return {
    heading: words.heading,
    intro: words.intro,
    updated: updatedLine(copy, locale, heads.privacy.dateModified),
    sections: [
      section("who", words.who.heading, [
        ...companyBlocks(copy, config.company),
        { paragraph: rich(words.who.contact, { email }) },
      ]),
      section("summary", words.summary.heading, blocksOf(words.summary.body)),
      section("visitor", words.visitor.heading, blocksOf(words.visitor.body)),
      section("storage", words.storage.heading, [
        ...blocksOf(words.storage.body, {
          cookie: { code: HINT_COOKIE },
          campaign: { code: CAMPAIGN_COOKIE },
        }),
        // Meta's browser id is kept only while Meta is a destination (leads/attribution-cookies).
        ...(config.destinations.some((destination) => destination.name === "meta")
          ? [{ paragraph: rich(words.storage.fbp, { fbp: { code: FBP_COOKIE } }) }]
          : []),
        // Only a countdown without BETA_CLOSES_AT keeps its start in the browser (decision 018).
        ...(config.betaClosesAt
          ? []
          : [{ paragraph: rich(words.storage.countdown, { key: { code: BETA_START_KEY } }) }]),
      ]),
      section("events", words.events.heading, [
        ...blocksOf(words.events.body),
        { list: RECORDED_EVENTS.map((name) => [{ code: name }, ": ", words.events.names[name]]) },
        { paragraph: rich(words.events.after) },
        // Only while an experiment runs (docs/decisions/022-experiments.md).
        ...(runningExperiment(config.experiments)
          ? [{ paragraph: rich(words.events.experiment, { event: { code: EXPOSURE_EVENT } }) }]
          : []),
      ]),
      section("leads", words.leads.heading, blocksOf(words.leads.body, { retention })),
      section("chat", words.chat.heading, [
        ...blocksOf(words.chat.body, { ref: { quote: `${copy.contact.chatRef} ${EXAMPLE_REF}` } }),
        ...(webhook ? [{ paragraph: webhookParagraph(words.chat, replying) }] : []),
      ]),
      section("recipients", words.recipients.heading, [
        { paragraph: rich(on.length > 0 ? words.recipients.some : words.recipients.none) },
      ]),
      ...services,
      section(
        "unrecorded",
        words.unrecorded.heading,
        blocksOf(words.unrecorded.body, { gpc: { code: GPC_HEADER } }),
      ),
      section("logs", words.logs.heading, [
        ...blocksOf(words.logs.body),
        // Without GA4 the events go to stdout (analytics/sink.server.ts).
        ...(config.destinations.some((destination) => destination.events)
          ? []
          : [{ paragraph: rich(words.logs.events) }]),
        // TRUST_PROXY counts the proxies in front, which log as web servers do.
        ...(config.trustProxy > 0 ? [{ paragraph: rich(words.logs.proxy) }] : []),
      ]),
      section("app", words.app.heading, blocksOf(words.app.body)),
      section(
        "rights",
        words.rights.heading,
        blocksOf(
          replying ? [words.rights.replying, ...words.rights.body.slice(1)] : words.rights.body,
          { email },
        ),
      ),
      section("changes", words.changes.heading, blocksOf(words.changes.body)),
    ],
  };
}
