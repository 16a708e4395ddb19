/** The blocks and edges a converter builds, before they become a workflow document (document-builder.ts) and are laid out (layout.ts). */

export interface BuiltBlock {
  id: string;
  type: string;
  name: string;
  parentId: string | null;
  enabled: boolean;
  config: Record<string, unknown>;
  position?: { x: number; y: number };
  size?: { width: number; height: number };
}

export interface BuiltEdge {
  id: string;
  source: string;
  target: string;
  sourceHandle: string;
  condition?: string;
}
