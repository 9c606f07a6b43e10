"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { useConfirm } from "@/components/ui/confirm";
import { Input, NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Alert, Skeleton } from "@/components/ui/misc";
import { useCreatePaper, useDeletePaper, usePapers } from "@/hooks/use-papers";
import { useFacets } from "@/hooks/use-retrieval";
import { plural } from "@/lib/text/plural";
import { PaperCreateSchema } from "@/schema/paper.schema";
import type { EPaperTemplate } from "@/types/paper.types";

export const TEMPLATE_LABEL: Record<EPaperTemplate, string> = {
  "board-80": "Board paper · 80 marks, 5 sections, 3 hours",
  "unit-test-20": "Unit test · 20 marks, 3 sections, 45 minutes",
  blank: "Blank paper",
};

/** The teacher's papers and the "new paper from a template" form. */
export function PapersList() {
  const confirm = useConfirm();
  const papers = usePapers();
  const facets = useFacets();
  const create = useCreatePaper();
  const remove = useDeletePaper();
  const router = useRouter();
  const [form, setForm] = useState({
    template: "unit-test-20" as EPaperTemplate,
    title: "",
    schoolName: "",
    board: "",
    grade: "",
    subject: "",
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const boards = facets.data?.boards ?? [];
  const grades = boards.find((b) => b.board === form.board)?.grades ?? [];
  const subjects = grades.find((g) => g.grade === form.grade)?.subjects ?? [];

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const parsed = PaperCreateSchema.safeParse({ ...form, schoolName: form.schoolName || undefined });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (res) => router.push(`/papers/${res.paper.id}`),
      onError: (err) => toast.error(err.message),
    });
  }

  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
      <section aria-labelledby="my-papers" className="flex flex-col gap-3">
        <h2 id="my-papers" className="text-lg font-semibold">
          My papers
        </h2>
        {papers.isPending && <Skeleton className="h-24" />}
        {papers.isError && (
          <Alert variant="destructive">
            {papers.error.message}{" "}
            <Button size="sm" variant="outline" onClick={() => void papers.refetch()}>
              Retry
            </Button>
          </Alert>
        )}
        {papers.data?.papers.length === 0 && (
          <p className="text-sm text-muted-foreground" data-testid="no-papers">
            No papers yet. Create one from a template, then add questions from the Questions page or from your
            earlier sets.
          </p>
        )}
        <ul className="flex flex-col gap-2" data-testid="paper-list">
          {papers.data?.papers.map((p) => (
            <li key={p.id}>
              <Card>
                <CardContent className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <div>
                    <Link href={`/papers/${p.id}`} className="font-medium text-primary hover:underline">
                      {p.title}
                    </Link>
                    <p className="text-xs text-muted-foreground">
                      {p.board} · Class {p.grade} · {p.subject} · {plural(p.itemCount, "question")} ·{" "}
                      <span className={p.countedMarks === p.totalMarks ? "text-success" : ""}>
                        {p.countedMarks}/{plural(p.totalMarks, "mark")}
                      </span>{" "}
                      · edited {new Date(p.updatedAt).toLocaleString()}
                    </p>
                  </div>
                  <Button
                    size="sm"
                    variant="outline"
                    aria-label={`Delete ${p.title}`}
                    onClick={async () => {
                      if (await confirm({ title: `Delete “${p.title}”?`, confirmLabel: "Delete paper" })) {
                        remove.mutate(p.id, { onError: (err) => toast.error(err.message) });
                      }
                    }}
                  >
                    Delete
                  </Button>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </section>
      <Card>
        <CardHeader>
          <CardTitle>New paper</CardTitle>
        </CardHeader>
        <CardContent>
          <form className="flex flex-col gap-3" onSubmit={submit} noValidate data-testid="new-paper">
            <Field label="Template" id="template">
              <NativeSelect
                id="template"
                value={form.template}
                onChange={(e) => setForm({ ...form, template: e.target.value as EPaperTemplate })}
              >
                {(Object.keys(TEMPLATE_LABEL) as EPaperTemplate[]).map((t) => (
                  <option key={t} value={t}>
                    {TEMPLATE_LABEL[t]}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Title" id="paper-title" error={errors.title}>
              <Input
                id="paper-title"
                value={form.title}
                placeholder="e.g. Half-yearly examination 2026"
                onChange={(e) => setForm({ ...form, title: e.target.value })}
              />
            </Field>
            <Field label="School (optional)" id="school">
              <Input
                id="school"
                value={form.schoolName}
                onChange={(e) => setForm({ ...form, schoolName: e.target.value })}
              />
            </Field>
            <Field label="Board" id="paper-board" error={errors.board}>
              <NativeSelect
                id="paper-board"
                value={form.board}
                onChange={(e) => setForm({ ...form, board: e.target.value, grade: "", subject: "" })}
              >
                <option value="">Choose…</option>
                {boards.map((b) => (
                  <option key={b.board}>{b.board}</option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Class" id="paper-grade" error={errors.grade}>
              <NativeSelect
                id="paper-grade"
                value={form.grade}
                disabled={!form.board}
                onChange={(e) => setForm({ ...form, grade: e.target.value, subject: "" })}
              >
                <option value="">Choose…</option>
                {grades.map((g) => (
                  <option key={g.grade}>{g.grade}</option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Subject" id="paper-subject" error={errors.subject}>
              <NativeSelect
                id="paper-subject"
                value={form.subject}
                disabled={!form.grade}
                onChange={(e) => setForm({ ...form, subject: e.target.value })}
              >
                <option value="">Choose…</option>
                {subjects.map((s) => (
                  <option key={s.subject}>{s.subject}</option>
                ))}
              </NativeSelect>
            </Field>
            <Button type="submit" disabled={create.isPending} data-testid="create-paper">
              {create.isPending ? "Creating…" : "Create paper"}
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}

export function Field({
  label,
  id,
  error,
  children,
}: {
  label: string;
  id: string;
  error?: string | undefined;
  children: React.ReactNode;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {error && (
        <p className="text-xs text-destructive" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
