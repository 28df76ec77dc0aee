/**
 * EXPERIMENTS_FILE: the tests of the landing page's copy, read and checked at start; none without
 * it (docs/decisions/022-experiments.md).
 */

import { ExperimentsFileError, readExperimentsFile } from "~/experiments/experiments-file.server";
import { parsed, setting, shown } from "~/platform/setting-readers.server";
import type { Experiment } from "~/shared/experiment";

export const EXPERIMENTS_FILE = setting({
  name: "EXPERIMENTS_FILE",
  description: "a JSON or YAML file of A/B tests of the hero's copy, read at start",
  schema: parsed<Experiment[]>((path) => {
    try {
      return { value: readExperimentsFile(path) };
    } catch (error) {
      if (!(error instanceof ExperimentsFileError)) throw error;
      return { error: `${shown(path)}: ${error.message}` };
    }
  }),
});

export const readExperiments = (env: Record<string, string | undefined>): Experiment[] =>
  EXPERIMENTS_FILE.read(env) ?? [];

/** The experiments' settings, for the composition and docs/settings.md. */
export const EXPERIMENTS_SETTINGS = [EXPERIMENTS_FILE];
