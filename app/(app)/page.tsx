import { Suspense } from "react";
import { QuestionsBuilder } from "@/components/builder/questions-builder";

export default function QuestionsPage() {
  return (
    <div className="flex flex-col gap-2">
      <h1 className="text-2xl font-semibold tracking-tight">Questions builder</h1>
      <p className="text-sm text-muted-foreground">
        Retrieve passages from your curriculum, then generate grounded questions that cite them.
      </p>
      <Suspense>
        <QuestionsBuilder />
      </Suspense>
    </div>
  );
}
