import { ApiTokens } from "@/components/settings/api-tokens";

export default function ApiSettingsPage() {
  return (
    <div className="flex flex-col gap-2">
      <h1 className="text-2xl font-semibold tracking-tight">API access</h1>
      <p className="text-sm text-muted-foreground">
        Personal tokens for school portals, LMS plug-ins and scripts.
      </p>
      <ApiTokens />
    </div>
  );
}
