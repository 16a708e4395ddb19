import {
  Bot,
  BookOpen,
  Box,
  Code,
  Columns3,
  Gauge,
  GitBranch,
  Globe,
  MessageCircleQuestion,
  Newspaper,
  Play,
  Repeat,
  Reply,
  Split,
  Variable,
  Workflow,
  type LucideIcon,
  type LucideProps,
} from "lucide-react";
import { memo } from "react";

/**
 * The icons block definitions name. Listed one by one because importing lucide's `icons` map
 * ships all ~1,600 icons (about 1 MB of script) to every editor page; block-icon.test.ts fails
 * when a definition names an icon missing here.
 */
export const BLOCK_ICONS: Readonly<Record<string, LucideIcon>> = {
  Bot,
  BookOpen,
  Box,
  Code,
  Columns3,
  Gauge,
  GitBranch,
  Globe,
  MessageCircleQuestion,
  Newspaper,
  Play,
  Repeat,
  Reply,
  Split,
  Variable,
  Workflow,
};

/** The lucide icon a block definition names, or a plain box when the name is unknown. */
export const BlockIcon = memo(function BlockIcon({ name, ...props }: { name: string } & LucideProps) {
  const Icon = BLOCK_ICONS[name] ?? Box;
  return <Icon aria-hidden {...props} />;
});
