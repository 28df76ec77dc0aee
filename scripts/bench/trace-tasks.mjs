// What a Lighthouse run's long tasks are made of, from its trace. Lighthouse's `long-tasks` audit
// gives simulated durations, and under simulation its per-task breakdown puts nearly everything in
// "Other"; the trace says which events a task ran (a style recalculation over how many elements, a
// layout of how many objects, the parser, a script) and, beside its wall time, the CPU time the
// main thread really had: a task that took 20 ms while the thread ran for 5 was waiting for a core.
import { MainThreadTasks } from "lighthouse/core/lib/tracehouse/main-thread-tasks.js";
import { TraceProcessor } from "lighthouse/core/lib/tracehouse/trace-processor.js";

/**
 * Lantern, Lighthouse's simulator, multiplies a task's wall time by 4 (the mobile CPU slowdown),
 * or by 2 when it laid anything out, and counts what passes 50 ms as blocking after FCP: a task of
 * 12.5 ms (25 ms with a layout) here is a long task there.
 */
export const LONG_AT_4X = 12.5;

const ms = (microseconds) => microseconds / 1000;

/** A short name for one trace event, with the figure that says how much work it was. */
function describe(event) {
  const args = event.args ?? {};
  const data = args.data ?? {};
  switch (event.name) {
    case "UpdateLayoutTree":
      return `style (${args.elementCount ?? data.elementCount ?? "?"} elements)`;
    case "Layout":
      return `layout (${args.beginData?.dirtyObjects ?? "?"} objects)`;
    case "ParseHTML":
      return "parse HTML";
    case "ParseAuthorStyleSheet":
      return "parse CSS";
    case "EvaluateScript":
    case "v8.compile":
    case "v8.compileModule":
    case "v8.evaluateModule":
    case "FunctionCall":
    case "v8.run":
      return `script ${path(data.url ?? args.url ?? "")}`.trim();
    case "RunTask":
      return "unattributed";
    default:
      return event.name;
  }
}

function path(url) {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/** The parts of a task that took the most self time, merged by name. */
function biggestParts(task, limit) {
  const parts = new Map();
  const visit = (node) => {
    const label = describe(node.event);
    parts.set(label, (parts.get(label) ?? 0) + node.selfTime);
    for (const child of node.children) visit(child);
  };
  visit(task);
  return [...parts.entries()]
    .map(([label, time]) => ({ label, ms: time }))
    .sort((a, b) => b.ms - a.ms)
    .filter((part, index) => index === 0 || part.ms >= 0.5)
    .slice(0, limit);
}

const didLayout = (task) => task.event.name === "Layout" || task.children.some(didLayout);

/** CPU time (ms) of each process's and thread's outermost events, by the thread's name. */
function cpuByThread(trace, from) {
  const names = new Map();
  for (const event of trace.traceEvents) {
    if (event.ph !== "M") continue;
    if (event.name === "thread_name") names.set(`${event.pid}:${event.tid}`, event.args?.name);
    if (event.name === "process_name") names.set(`${event.pid}`, event.args?.name);
  }
  const totals = new Map();
  const ends = new Map();
  const complete = trace.traceEvents
    .filter((e) => e.ph === "X" && typeof e.tdur === "number" && e.ts >= from)
    .sort((a, b) => a.ts - b.ts);
  for (const event of complete) {
    const thread = `${event.pid}:${event.tid}`;
    if ((ends.get(thread) ?? Number.NEGATIVE_INFINITY) > event.ts) continue;
    ends.set(thread, event.ts + event.dur);
    const name = `${names.get(`${event.pid}`) ?? "?"} ${names.get(thread) ?? "?"}`;
    totals.set(name, (totals.get(name) ?? 0) + ms(event.tdur));
  }
  return totals;
}

/** The threads that share the machine's cores with the page's main thread during a load. */
const NEIGHBOURS = [
  { label: "the compositor (Viz)", match: /VizCompositorThread/ },
  { label: "the browser's main thread", match: /^Browser CrBrowserMain/ },
  {
    label: "the renderer's workers (raster, script streaming)",
    match: /^Renderer (ThreadPool|Compositor)/,
  },
];

/**
 * The main thread of `trace` (Lighthouse's Trace artifact): its top-level tasks that reach `minMs`
 * of wall time, in order (start in ms from navigation, wall and CPU time, the URL Lighthouse
 * attributes it to, the biggest parts by self time), its wall and CPU time in all, FCP, and the
 * CPU time of the threads that competed with it for the cores.
 */
export function traceTasks(trace, { minMs = LONG_AT_4X, parts = 3 } = {}) {
  const processed = TraceProcessor.processTrace(trace);
  const navigation = TraceProcessor.processNavigation(processed);
  const origin = processed.timestamps.timeOrigin;
  const tasks = MainThreadTasks.getMainThreadTasks(
    processed.mainThreadEvents,
    processed.frames,
    processed.timestamps.traceEnd,
    origin,
  ).filter((task) => !task.parent && task.startTime >= 0);
  // A task recorded as a begin and an end event has no thread time: its wall time stands in.
  const cpu = (task) => (typeof task.event.tdur === "number" ? ms(task.event.tdur) : task.duration);
  const threads = cpuByThread(trace, origin);
  const neighbours = NEIGHBOURS.map(({ label, match }) => ({
    label,
    ms: [...threads].filter(([name]) => match.test(name)).reduce((sum, [, time]) => sum + time, 0),
  }));
  return {
    fcp: navigation.timings.firstContentfulPaint ?? null,
    wall: tasks.reduce((sum, task) => sum + task.duration, 0),
    cpu: tasks.reduce((sum, task) => sum + cpu(task), 0),
    neighbours,
    long: tasks
      .filter((task) => task.duration >= minMs)
      .map((task) => ({
        startTime: task.startTime,
        wall: task.duration,
        cpu: cpu(task),
        layout: didLayout(task),
        url: task.attributableURLs.at(-1) ?? "",
        parts: biggestParts(task, parts),
      })),
  };
}
