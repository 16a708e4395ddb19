import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";
import { colorSchemeScript } from "@/components/theme/color-scheme";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: "Trellis",
  description: "Build AI workflows on a canvas, run them live, and see what every block costs.",
  // public/icon.svg: the one brand mark, also drawn in the sidebar.
  icons: { icon: { url: "/icon.svg", type: "image/svg+xml" } },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // The head script sets <html>'s `dark` class before React hydrates, hence the suppressed warning.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: colorSchemeScript }} />
      </head>
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
