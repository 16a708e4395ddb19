"use client";

import { useState, type ReactNode } from "react";
import { Group, Panel, Separator, useDefaultLayout, usePanelRef } from "react-resizable-panels";
import {
  COLLAPSED_SIDE_PX,
  INSPECTOR_SIZES,
  NARROW_WINDOW_PX,
  PALETTE_SIZES,
  panelStorage,
  RUN_PANEL_SIZES,
} from "./panel-layout";

/** What a side panel is told: whether it is collapsed to its icons, and how to change that. */
export interface SidePanelControl {
  collapsed: boolean;
  collapse(): void;
  expand(): void;
}

interface EditorPanelsProps {
  /** Absent in a read-only editor. */
  palette?: (control: SidePanelControl) => ReactNode;
  canvas: ReactNode;
  inspector: (control: SidePanelControl) => ReactNode;
  /** The run panel's bar (tabs, always shown) and, while it is open, its body in a resizable panel. */
  runPanel: ReactNode;
  runPanelOpen: boolean;
}

const SEPARATOR_CLASS =
  "relative bg-slate-200 outline-none transition-colors hover:bg-indigo-400 focus-visible:bg-indigo-500 focus-visible:ring-2 focus-visible:ring-indigo-500 data-[separator=active]:bg-indigo-500";

/** A side panel's size, collapse state and the control its content is given. */
function useSidePanel() {
  const panelRef = usePanelRef();
  const [collapsed, setCollapsed] = useState(false);
  const control: SidePanelControl = {
    collapsed,
    collapse: () => panelRef.current?.collapse(),
    expand: () => panelRef.current?.expand(),
  };
  const onResize = () => setCollapsed(panelRef.current?.isCollapsed() ?? false);
  return { panelRef, control, onResize };
}

/**
 * Panel ids double as test ids (the library sets both): they end in `-area` so they never clash
 * with the test ids of what they hold (`canvas`, `palette`, `inspector`, `run-panel`).
 */

/**
 * The editor's resizable frame: palette, canvas and inspector side by side, the run panel under
 * them. Each separator drags, and with the keyboard (focus it, then the arrow keys) resizes; the
 * side panels collapse to a column of icons and reopen; the sizes are remembered in localStorage.
 * The canvas keeps at least half the width.
 */
export function EditorPanels({ palette, canvas, inspector, runPanel, runPanelOpen }: EditorPanelsProps) {
  const columnIds = palette ? ["palette-area", "canvas-area", "inspector-area"] : ["canvas-area", "inspector-area"];
  const columns = useDefaultLayout({ id: "trellis-editor-columns", panelIds: columnIds, storage: panelStorage });
  const rowIds = runPanelOpen ? ["editor-area", "run-area"] : ["editor-area"];
  const rows = useDefaultLayout({ id: "trellis-editor-rows", panelIds: rowIds, storage: panelStorage });
  const paletteSide = useSidePanel();
  const inspectorSide = useSidePanel();
  // A narrow window starts with the palette collapsed (until the person sizes it themselves).
  const [narrow] = useState(() => typeof window !== "undefined" && window.innerWidth < NARROW_WINDOW_PX);

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <Group
        orientation="vertical"
        id="trellis-editor-rows"
        className="min-h-0 flex-1"
        defaultLayout={rows.defaultLayout}
        onLayoutChanged={rows.onLayoutChanged}
      >
        <Panel id="editor-area" minSize="25%">
          <Group
            orientation="horizontal"
            id="trellis-editor-columns"
            className="h-full"
            defaultLayout={columns.defaultLayout}
            onLayoutChanged={columns.onLayoutChanged}
          >
            {palette && (
              <>
                <Panel
                  id="palette-area"
                  panelRef={paletteSide.panelRef}
                  onResize={paletteSide.onResize}
                  collapsible
                  collapsedSize={COLLAPSED_SIDE_PX}
                  defaultSize={narrow ? COLLAPSED_SIDE_PX : PALETTE_SIZES.default}
                  minSize={PALETTE_SIZES.min}
                  maxSize={PALETTE_SIZES.max}
                  groupResizeBehavior="preserve-pixel-size"
                >
                  {palette(paletteSide.control)}
                </Panel>
                <Separator
                  id="palette-separator"
                  className={`w-px ${SEPARATOR_CLASS}`}
                  aria-label="Resize the blocks panel"
                />
              </>
            )}
            <Panel id="canvas-area" minSize="50%">
              <main className="h-full min-w-0">{canvas}</main>
            </Panel>
            <Separator
              id="inspector-separator"
              className={`w-px ${SEPARATOR_CLASS}`}
              aria-label="Resize the inspector"
            />
            <Panel
              id="inspector-area"
              panelRef={inspectorSide.panelRef}
              onResize={inspectorSide.onResize}
              collapsible
              collapsedSize={COLLAPSED_SIDE_PX}
              defaultSize={INSPECTOR_SIZES.default}
              minSize={INSPECTOR_SIZES.min}
              maxSize={INSPECTOR_SIZES.max}
              groupResizeBehavior="preserve-pixel-size"
            >
              {inspector(inspectorSide.control)}
            </Panel>
          </Group>
        </Panel>
        {runPanelOpen && (
          <>
            <Separator
              id="run-panel-separator"
              className={`h-px ${SEPARATOR_CLASS}`}
              aria-label="Resize the run panel"
            />
            <Panel
              id="run-area"
              defaultSize={RUN_PANEL_SIZES.default}
              minSize={RUN_PANEL_SIZES.min}
              maxSize="75%"
              groupResizeBehavior="preserve-pixel-size"
            >
              {runPanel}
            </Panel>
          </>
        )}
      </Group>
      {!runPanelOpen && runPanel}
    </div>
  );
}
