import http from "node:http";
import { installServerGuard } from "./server-guard";

/** instrumentation.ts (Node.js runtime only) loads this to put the guard in front of Next.js. */
export function installOnNodeServer(): void {
  installServerGuard(http.Server.prototype);
}
