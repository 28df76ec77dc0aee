import { useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { eventAttributes } from "~/analytics/link-clicks";
import { PageLink } from "~/components/PageLink";
import { localeOfPath, localePath } from "~/shared/locale";

/**
 * A link to a section of the landing page ("/#id"), reporting navigation_click. Always a router
 * link: a bare "#id" anchor fires popstate, and scroll restoration then undoes the jump.
 */
export function SectionLink({
  id,
  className,
  onNavigate,
  children,
}: {
  id: string;
  className?: string;
  onNavigate?: () => void;
  children: ReactNode;
}) {
  const { pathname } = useLocation();
  return (
    <PageLink
      to={localePath(localeOfPath(pathname), `/#${id}`)}
      className={className}
      onClick={onNavigate}
      {...eventAttributes("navigation_click")}
    >
      {children}
    </PageLink>
  );
}
