// Minimal typings for the parts of autocannon (8.x, no bundled types) that bench-load uses.
declare module "autocannon" {
  interface IRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface IOptions {
    url: string;
    connections?: number;
    duration?: number;
    requests?: IRequest[];
    headers?: Record<string, string>;
    timeout?: number;
  }
  interface IResult {
    requests: { total: number; average: number };
    latency: { p50: number; p90: number; p97_5: number; p99: number; max: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    duration: number;
  }
  interface IInstance {
    on(
      event: "response",
      cb: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void,
    ): void;
  }
  function autocannon(opts: IOptions): IInstance & PromiseLike<IResult>;
  export default autocannon;
}
