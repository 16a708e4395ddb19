import { icons, Box, type LucideProps } from "lucide-react";
import { memo } from "react";

/** The lucide icon a block definition names, or a plain box when the name is unknown. */
export const BlockIcon = memo(function BlockIcon({ name, ...props }: { name: string } & LucideProps) {
  const Icon = (icons as Record<string, typeof Box>)[name] ?? Box;
  return <Icon aria-hidden {...props} />;
});
