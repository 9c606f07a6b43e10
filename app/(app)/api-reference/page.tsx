import { Badge } from "@/components/ui/badge";
import { Card, CardContent } from "@/components/ui/card";
import { buildOpenApiDocument } from "@/lib/openapi/document";

interface IOperation {
  summary?: string;
  tags?: string[];
  security?: unknown[];
  requestBody?: { content: Record<string, { schema: unknown; example?: unknown }> };
  responses: Record<string, { description: string }>;
}

/** A readable reference rendered from the same OpenAPI document as /api/openapi.json. */
export default function ApiReferencePage() {
  const doc = buildOpenApiDocument();
  const paths = Object.entries((doc.paths ?? {}) as Record<string, Record<string, IOperation>>);
  return (
    <div className="flex flex-col gap-3">
      <h1 className="text-2xl font-semibold tracking-tight">API reference</h1>
      <p className="text-sm text-muted-foreground">
        OpenAPI {doc.openapi} · machine-readable at{" "}
        <a className="text-primary underline" href="/api/openapi.json">
          /api/openapi.json
        </a>
        . Send <code>Authorization: Bearer &lt;token&gt;</code> (a personal API token from the API page or a
        session token from /api/auth/login). Errors are{" "}
        <code>{"{ ok: false, error: { code, message, details? } }"}</code>.
      </p>
      {paths.flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => {
          const body = op.requestBody ? Object.entries(op.requestBody.content)[0] : undefined;
          return (
            <Card key={`${method} ${path}`} data-testid="api-operation">
              <CardContent className="flex flex-col gap-2 pt-4 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge>{method.toUpperCase()}</Badge>
                  <code className="font-semibold">{path}</code>
                  {op.tags?.map((t) => (
                    <Badge key={t} variant="outline">
                      {t}
                    </Badge>
                  ))}
                  {!op.security && <Badge variant="success">no auth</Badge>}
                </div>
                <p>{op.summary}</p>
                <p className="text-xs text-muted-foreground">
                  Responses:{" "}
                  {Object.entries(op.responses)
                    .map(([code, r]) => `${code} ${r.description}`)
                    .join(" · ")}
                </p>
                {body && (
                  <details className="text-xs">
                    <summary className="cursor-pointer">Request body ({body[0]})</summary>
                    {body[1].example !== undefined && (
                      <pre className="mt-2 overflow-x-auto rounded bg-muted p-2">
                        {JSON.stringify(body[1].example, null, 2)}
                      </pre>
                    )}
                    <pre className="mt-2 max-h-80 overflow-auto rounded bg-muted p-2">
                      {JSON.stringify(body[1].schema, null, 2)}
                    </pre>
                  </details>
                )}
              </CardContent>
            </Card>
          );
        }),
      )}
    </div>
  );
}
