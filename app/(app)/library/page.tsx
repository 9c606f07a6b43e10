import { Library } from "@/components/library/library";
import { getSessionUser } from "@/lib/auth/session";

export default async function LibraryPage() {
  const user = await getSessionUser();
  return (
    <div className="flex flex-col gap-2">
      <h1 className="text-2xl font-semibold tracking-tight">Resource library</h1>
      <p className="text-sm text-muted-foreground">
        {user?.role === "admin"
          ? "Upload textbooks, past papers and notes for every teacher."
          : "Upload private notes for yourself; shared resources come from curriculum admins."}
      </p>
      <Library role={user?.role ?? "teacher"} />
    </div>
  );
}
