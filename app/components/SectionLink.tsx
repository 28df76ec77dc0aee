import { Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { track } from "~/lib/analytics.client";

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
  const onClick = () => {
    track("navigation_click", { target_section: id, from_path: pathname });
    onNavigate?.();
  };
  return (
    <Link to={`/#${id}`} className={className} onClick={onClick}>
      {children}
    </Link>
  );
}
