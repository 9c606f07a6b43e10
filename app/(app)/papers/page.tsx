import { PapersList } from "@/components/papers/papers-list";

export default function PapersPage() {
  return (
    <div className="flex flex-col gap-2">
      <h1 className="text-2xl font-semibold tracking-tight">Question papers</h1>
      <p className="text-sm text-muted-foreground">
        Assemble papers from your generated questions, check them against a blueprint and export them with the
        answer key.
      </p>
      <PapersList />
    </div>
  );
}
