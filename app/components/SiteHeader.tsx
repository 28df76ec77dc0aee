import { Link } from "@remix-run/react";
import { BrandMark } from "~/components/BrandMark";
import { ShareMenu } from "~/components/ShareMenu";
import { brand } from "~/content/brand";

export function SiteHeader({
  siteUrl,
  documentLinks = false,
}: {
  /** Missing only on the error screen, which then leaves out the share control. */
  siteUrl?: string;
  documentLinks?: boolean;
}) {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur dark:border-ink-800 dark:bg-ink-950/90">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-5">
        <Link
          to="/"
          reloadDocument={documentLinks}
          className="flex min-h-11 items-center gap-2 text-lg font-bold tracking-tight"
          aria-label={`${brand.name}, home`}
        >
          <BrandMark />
          <span>{brand.name}</span>
        </Link>
        {siteUrl ? <ShareMenu siteUrl={siteUrl} placement="header" /> : null}
      </div>
    </header>
  );
}
