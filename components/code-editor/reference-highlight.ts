import { RangeSetBuilder } from "@codemirror/state";
import { Decoration, ViewPlugin, type DecorationSet, type EditorView, type ViewUpdate } from "@codemirror/view";
import { parseReferences } from "@/executor";

const referenceMark = Decoration.mark({ class: "cm-reference" });

/** Marks every `<Block.field>` and `{{NAME}}` the engine would resolve, as the run reads them. */
function referenceMarks(view: EditorView): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  for (const { from, to } of view.visibleRanges) {
    // References never span lines, so each visible line is parsed on its own.
    for (let position = from; position <= to;) {
      const line = view.state.doc.lineAt(position);
      for (const token of parseReferences(line.text))
        builder.add(line.from + token.start, line.from + token.end, referenceMark);
      position = line.to + 1;
    }
  }
  return builder.finish();
}

export const referenceHighlight = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = referenceMarks(view);
    }
    update(update: ViewUpdate) {
      if (update.docChanged || update.viewportChanged) this.decorations = referenceMarks(update.view);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);
