import { Link } from "@remix-run/react";
import { BrandMark } from "~/components/BrandMark";
import { brand } from "~/content/brand";
import { footer } from "~/content/footer";
import type { SiteSettings } from "~/lib/site.server";

export function SiteFooter({
  site,
  documentLinks = false,
}: {
  site: SiteSettings;
  documentLinks?: boolean;
}) {
  return (
    <footer className="border-t border-slate-200 bg-slate-50 text-sm text-slate-700 dark:border-ink-800 dark:bg-ink-900 dark:text-slate-300">
      <div className="mx-auto grid max-w-6xl gap-8 px-5 py-12 sm:grid-cols-2">
        <div className="space-y-3">
          <p className="flex items-center gap-2 text-base font-bold text-slate-900 dark:text-white">
            <BrandMark className="size-6" />
            {brand.name}
          </p>
          <p>{brand.tagline}</p>
          <address className="space-y-1 not-italic">
            <span className="block">{footer.address}</span>
            <a className="block underline-offset-4 hover:underline" href={`mailto:${site.email}`}>
              {site.email}
            </a>
            <a className="block underline-offset-4 hover:underline" href={site.phoneHref}>
              <bdi dir="ltr">{site.phone}</bdi>
            </a>
          </address>
        </div>
        <nav aria-label={footer.navLabel}>
          <ul className="grid grid-cols-2 gap-x-6">
            {footer.links.map((link) => (
              <li key={link.href}>
                <Link
                  to={link.href}
                  reloadDocument={documentLinks}
                  className="inline-flex min-h-11 items-center underline-offset-4 hover:underline"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <p className="border-t border-slate-200 py-5 text-center dark:border-ink-800">
        © {site.year} {brand.name}. {footer.rights}
      </p>
    </footer>
  );
}
