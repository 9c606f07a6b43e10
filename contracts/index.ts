import * as auth from "./auth.contract";
import type { IContract } from "./contract";
import * as generation from "./generation.contract";
import * as papers from "./papers.contract";
import * as resources from "./resources.contract";
import * as retrieval from "./retrieval.contract";
import * as system from "./system.contract";
import * as users from "./users.contract";

const isContract = (v: unknown): v is IContract =>
  typeof v === "object" && v !== null && "method" in v && "path" in v && "auth" in v;

/** Every endpoint of the API: the OpenAPI document and its tests are built from this list. */
export const CONTRACTS: readonly IContract[] = [system, auth, users, retrieval, resources, generation, papers]
  .flatMap((module) => Object.values(module))
  .filter(isContract);
