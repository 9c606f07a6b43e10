import { PaperBuilder } from "@/components/papers/paper-builder";

export default async function PaperPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <div className="flex flex-col gap-2">
      <h1 className="sr-only">Paper builder</h1>
      <PaperBuilder id={id} />
    </div>
  );
}
