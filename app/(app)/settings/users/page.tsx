import { Users } from "@/components/settings/users";
import { Alert } from "@/components/ui/misc";
import { getSessionUser } from "@/lib/auth/session";

export default async function UsersSettingsPage() {
  const user = await getSessionUser();
  return (
    <div className="flex flex-col gap-2">
      <h1 className="text-2xl font-semibold tracking-tight">Users</h1>
      <p className="text-sm text-muted-foreground">
        Teachers and curriculum admins of this school: add them, change their role or reset a password here.
      </p>
      {user?.role === "admin" ? (
        <Users currentUserId={user.id} />
      ) : (
        <Alert variant="destructive">Only curriculum admins manage accounts.</Alert>
      )}
    </div>
  );
}
