// The part of autocannon 9's programmatic API the load tests use (it ships no types).
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  namespace autocannon {
    type Request = {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
    };
    type Options = Request & {
      url: string;
      connections?: number;
      duration?: number;
      amount?: number;
      overallRate?: number;
      connectionRate?: number;
      pipelining?: number;
      timeout?: number;
      requests?: Request[];
    };
    type Histogram = {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      p50: number;
      p90: number;
      p99: number;
      total: number;
    };
    type Result = {
      latency: Histogram;
      requests: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
      resets: number;
      statusCodeStats: Record<string, { count: number }>;
      duration: number;
    };
    type Instance = EventEmitter & PromiseLike<Result> & { stop: () => void };
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export default autocannon;
}
