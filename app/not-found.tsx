import Link from "next/link";

export default function NotFound() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-3 p-6 text-center">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="text-muted-foreground">The page you asked for does not exist.</p>
      <Link href="/" className="text-primary underline">
        Back to Paperwise
      </Link>
    </main>
  );
}
