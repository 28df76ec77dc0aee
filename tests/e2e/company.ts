/**
 * The company the browser tests' server is set with (playwright.config.ts), as production sets
 * COMPANY_*: samples, and named so.
 */
export const SAMPLE_COMPANY = {
  COMPANY_NAME: "Darb Sample Company LLC",
  COMPANY_LICENCE: "SAMPLE-0000",
  COMPANY_ADDRESS: "Sample Tower, Dubai, UAE",
} as const;
