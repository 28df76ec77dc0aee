import { useCopy } from "~/hooks/use-copy.server";

/** The closing heading and line (a static part). */
export function GetStartedIntro() {
  const { getStarted } = useCopy();
  return (
    <>
      <h2 id="get-started-heading" className="section-title mx-auto">
        {getStarted.heading}
      </h2>
      <p className="mx-auto mt-3 max-w-xl text-slate-300 sm:text-lg">{getStarted.body}</p>
    </>
  );
}
