import { SourcePassage } from "@/components/sources/source-passage";

/** View source at the passage, for text sources (PDFs open at the page in the browser's viewer). */
export default async function SourcePage({
  params,
  searchParams,
}: {
  params: Promise<{ documentId: string }>;
  searchParams: Promise<{ chunk?: string }>;
}) {
  const { documentId } = await params;
  const chunk = Number((await searchParams).chunk ?? 0);
  return <SourcePassage documentId={documentId} chunk={Number.isInteger(chunk) && chunk >= 0 ? chunk : 0} />;
}
