// The ConfigError a set of settings stops start-up with, for the settings' unit tests; a test
// fails when the settings are taken.
import { ConfigError, parseConfig } from "~/settings.server";

export function configErrorFor(env: Record<string, string>): ConfigError {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}
