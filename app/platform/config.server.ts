/**
 * The settings' old address, kept for the server's list of what it runs of the app
 * (server-api.server.ts); everything else imports ~/settings.server, where the features' settings
 * are put together, and each feature's own declarations.
 */
export {
  type Company,
  type Config,
  ConfigError,
  checkConfigAtStart,
  configWarnings,
  exitWith,
  getConfig,
  type LeadValues,
  parseConfig,
} from "~/settings.server";
