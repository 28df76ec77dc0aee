import { useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { PageLink } from "~/components/PageLink";
import { eventAttributes } from "~/lib/link-clicks";
import { localeOfPath, localePath } from "~/lib/locale";

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
  const event = {
    name: "navigation_click",
    params: { target_section: id, from_path: pathname },
  } as const;
  return (
    <PageLink
      to={localePath(localeOfPath(pathname), `/#${id}`)}
      className={className}
      onClick={onNavigate}
      {...eventAttributes(event)}
    >
      {children}
    </PageLink>
  );
}
