import type { ReactNode } from "react";

/**
 * A landing-page section below the first screen: an anchor target clear of the sticky header,
 * with its heading, laid out only as it nears the viewport (`render-when-near` in tailwind.css,
 * document/render-before-jumps.server.ts). Nothing in it may reach outside its box, which clips what
 * it paints: GetStarted's share menu would, so GetStarted is not a Section.
 */
export function Section({
  id,
  heading,
  intro,
  tone = "plain",
  children,
}: {
  id: string;
  heading: string;
  intro?: string;
  tone?: "plain" | "tinted" | "dark";
  children: ReactNode;
}) {
  const tones = {
    plain: "",
    tinted: "bg-slate-50 dark:bg-ink-900",
    dark: "bg-ink-900 text-white dark:bg-ink-800",
  };
  return (
    <section
      id={id}
      aria-labelledby={`${id}-heading`}
      className={`render-when-near scroll-mt-16 py-16 sm:py-24 ${tones[tone]}`}
    >
      <div className="mx-auto max-w-6xl px-5">
        <h2
          id={`${id}-heading`}
          className="max-w-3xl text-3xl font-bold tracking-tight text-balance sm:text-4xl"
        >
          {heading}
        </h2>
        {intro ? (
          <p
            className={`mt-4 max-w-2xl text-lg ${tone === "dark" ? "text-slate-300" : "text-slate-700 dark:text-slate-300"}`}
          >
            {intro}
          </p>
        ) : null}
        <div className="mt-10">{children}</div>
      </div>
    </section>
  );
}
