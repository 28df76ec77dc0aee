import { useUi } from "~/hooks/use-site";

// A static part (document/static-parts.ts): in every page, hidden until a client-side navigation.

/** Shown in place of a page while its code and data load on a client-side navigation. */
export function PageSkeleton() {
  const { chrome } = useUi();
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="page-skeleton"
      className="mx-auto w-full max-w-6xl animate-[fade-in_200ms_ease-out_120ms_both] px-5 py-16"
    >
      <span className="sr-only">{chrome.loading}</span>
      <div aria-hidden="true" className="space-y-6 motion-safe:animate-pulse">
        <div className="h-5 w-32 rounded-full skeleton-bar" />
        <div className="h-10 w-3/4 rounded-lg skeleton-bar" />
        <div className="h-10 w-1/2 rounded-lg skeleton-bar" />
        <div className="h-4 w-full max-w-xl rounded skeleton-bar" />
        <div className="h-4 w-full max-w-lg rounded skeleton-bar" />
        <div className="flex gap-3 pt-4">
          <div className="h-12 w-44 rounded-xl skeleton-bar" />
          <div className="h-12 w-32 rounded-xl skeleton-bar" />
        </div>
      </div>
    </div>
  );
}
