/**
 * What the app's own server (server/) runs of the app's code. The server takes it from the Remix
 * build it serves, where app/entry.server.tsx exports it as `serverApi` (server/app.ts reads it
 * through `build.entry.module`), and bundles none of it itself: so each app module, and its state
 * (getConfig's cache among them), exists once in the process
 * (docs/decisions/015-app-bundled-once.md). A name added here is added to server/app.ts's list.
 */
export { registerDestination } from "~/analytics/destinations/registry.server";
export { statsReporter } from "~/analytics/sink.server";
export { runExperimentsReport } from "~/experiments/report-cli.server";
export { assignmentKey, experimentOfRequest } from "~/experiments/visit.server";
export { attributionOfRequest } from "~/leads/attribution-cookies.server";
export { runLeadsReport } from "~/leads/report-cli.server";
export { pageVariant, variantKey } from "~/pages/page-variant.server";
export { ConfigError, checkConfigAtStart, exitWith, parseConfig } from "~/platform/config.server";
export { bounded, logLine, writeErrorLine, writeLogLine } from "~/platform/log-line.server";
export { createServices } from "~/platform/services.server";
export { hasClickId } from "~/shared/campaign";
