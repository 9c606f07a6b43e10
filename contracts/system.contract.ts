import { z } from "zod";
import { HealthResponseSchema } from "@/schema/health.schema";
import { defineContract } from "./contract";

export const healthContract = defineContract({
  name: "health",
  method: "GET",
  path: "/api/health",
  summary: "Liveness, database readiness and the model provider's circuit breakers",
  tag: "system",
  auth: { kind: "public" },
  response: HealthResponseSchema,
  errors: [503],
});

export const openApiContract = defineContract({
  name: "openapi",
  method: "GET",
  path: "/api/openapi.json",
  summary: "This OpenAPI 3.1 document, generated from the endpoint contracts",
  tag: "system",
  auth: { kind: "public" },
  response: z.record(z.string(), z.unknown()),
});
