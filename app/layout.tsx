import type { Metadata } from "next";
import { connection } from "next/server";
import { Providers } from "@/components/providers";
import "./globals.css";

export const metadata: Metadata = {
  title: "Paperwise",
  description: "Grounded, Bloom-aligned question papers from your own curriculum resources",
};

/**
 * Every page renders per request: the CSP nonce (proxy.ts) is new each time, and Next.js can only
 * put it on the scripts of a page rendered for that request.
 */
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen antialiased">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
