import type { ReactNode } from "react";

const TONES = {
  plain: "",
  sand: "bg-sand-50 dark:bg-ink-900",
  tinted: "bg-slate-50 dark:bg-ink-900",
  dark: "bg-ink-950 text-white dark:bg-ink-900",
};

/**
 * A landing-page section below the first screen: an anchor target clear of the sticky header,
 * with its heading under a short lane marking (the brand's road line, `lane-mark` in
 * tailwind.css), laid out only as it nears the viewport (`render-when-near`,
 * components/render-before-jumps.server.ts). Nothing in it may reach outside its box, which clips
 * what it paints: GetStarted's share menu would, so GetStarted is not a Section.
 */
export function Section({
  id,
  heading,
  intro,
  tone = "plain",
  layout = "stacked",
  className = "",
  children,
}: {
  id: string;
  heading: string;
  intro?: string;
  tone?: keyof typeof TONES;
  /** "side": from lg, the heading beside the content rather than above it (short sections). */
  layout?: "stacked" | "side";
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-heading`}
      className={`render-when-near scroll-mt-16 py-9 sm:py-20 ${TONES[tone]} ${className}`}
    >
      <div
        className={`mx-auto max-w-6xl px-5 ${layout === "side" ? "lg:grid lg:grid-cols-[2fr_3fr] lg:gap-16" : ""}`}
      >
        <div>
          <span aria-hidden="true" className="lane-mark" />
          <h2 id={`${id}-heading`} className="section-title">
            {heading}
          </h2>
          {intro ? (
            <p
              className={`mt-3 max-w-2xl sm:text-lg ${tone === "dark" ? "text-slate-300" : "muted"}`}
            >
              {intro}
            </p>
          ) : null}
        </div>
        <div className={`mt-6 sm:mt-10 ${layout === "side" ? "lg:mt-0" : ""}`}>{children}</div>
      </div>
    </section>
  );
}
