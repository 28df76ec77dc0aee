import { brand } from "~/content/brand";
import type { Config } from "~/platform/config.server";
import type { Company } from "~/platform/public-settings.server";

/** What every page may show of the configuration; secrets and salts stay on the server. */
export type SiteSettings = {
  siteUrl: string;
  email: string;
  phone: string;
  /** For tel: links: digits with a leading +. */
  phoneHref: string;
  whatsappNumber: string;
  demoUrl: string;
  /** ISO string, or null for "two days after page load". */
  betaClosesAt: string | null;
  year: string;
  /**
   * The company behind the site, for the footer and the JSON-LD: only the settings that are set,
   * and no key at all while none is (every page's data carries this).
   */
  company?: Partial<Record<keyof Company, string>>;
};

// Built once: a formatter costs more than the rest of this function on every request.
const yearFormat = new Intl.DateTimeFormat(brand.locale, {
  year: "numeric",
  timeZone: brand.timeZone,
});

export function siteSettings(config: Config, now = new Date()): SiteSettings {
  const digits = config.contactPhone.replace(/\D/g, "");
  return {
    siteUrl: config.siteUrl,
    email: config.contactEmail,
    phone: config.contactPhone,
    phoneHref: `tel:+${digits}`,
    whatsappNumber: config.whatsappNumber,
    demoUrl: config.demoUrl,
    betaClosesAt: config.betaClosesAt?.toISOString() ?? null,
    year: yearFormat.format(now),
    ...companyOf(config.company),
  };
}

function companyOf(company: Company): Pick<SiteSettings, "company"> {
  const set = Object.entries(company).filter(([, value]) => value !== null);
  return set.length > 0 ? { company: Object.fromEntries(set) } : {};
}
