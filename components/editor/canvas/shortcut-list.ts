/** The editor's keyboard shortcuts, listed once for the help dialog. `Mod` is Ctrl (⌘ on a Mac). */
export const SHORTCUTS: ReadonlyArray<{ keys: string[]; action: string }> = [
  { keys: ["Mod", "Enter"], action: "Run: open the Run form; in the form, start the run" },
  { keys: ["Mod", "Z"], action: "Undo" },
  { keys: ["Mod", "Shift", "Z"], action: "Redo (also Mod+Y)" },
  { keys: ["Mod", "C"], action: "Copy selected blocks (as JSON)" },
  { keys: ["Mod", "X"], action: "Cut selected blocks" },
  { keys: ["Mod", "V"], action: "Paste blocks, here or in another workflow" },
  { keys: ["Mod", "D"], action: "Duplicate selected blocks" },
  { keys: ["Mod", "A"], action: "Select all blocks" },
  { keys: ["Delete"], action: "Delete selected blocks and edges (also Backspace)" },
  { keys: ["Shift", "drag"], action: "Select with a box" },
  { keys: ["Shift", "click"], action: "Add to the selection" },
  { keys: ["Space", "drag"], action: "Pan" },
  { keys: ["F"], action: "Fit the whole workflow in view" },
  { keys: ["L"], action: "Arrange automatically (auto layout)" },
  { keys: ["Esc"], action: "Clear the selection" },
  { keys: ["?"], action: "Show this list" },
];
