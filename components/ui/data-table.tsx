import type { HTMLAttributes, ReactNode, TdHTMLAttributes } from "react";

/** A column's heading; `hidden` keeps it for screen readers alone (a column of buttons). */
export interface DataColumn {
  header: ReactNode;
  hidden?: boolean;
  /** Figures read best right-aligned, heading and cells alike. */
  align?: "right";
}

/**
 * How a table sits on its page: `boxed` (settings) is a bordered white card with a shaded
 * heading row; `plain` (long lists such as the runs) leaves the page's background and lights the
 * row under the pointer.
 */
export type DataTableVariant = "boxed" | "plain";

const TABLE_STYLES: Record<DataTableVariant, { table: string; head: string }> = {
  boxed: {
    table: "w-full overflow-hidden rounded border border-slate-200 bg-white text-sm",
    head: "bg-slate-50 text-left text-xs text-slate-500",
  },
  plain: { table: "w-full text-left text-sm", head: "text-xs text-slate-500" },
};

const ROW_STYLES: Record<DataTableVariant, string> = {
  boxed: "border-t border-slate-200",
  plain: "border-t border-slate-100 hover:bg-slate-50",
};

function joined(...classes: Array<string | undefined | false>): string {
  return classes.filter(Boolean).join(" ");
}

/**
 * The table the settings and list pages show their records in. `label` names it for assistive
 * technology (tests and screen readers find it by it); the rows are DataRow elements, each a
 * component of the page's own when a row keeps state.
 */
export function DataTable({
  label,
  columns,
  variant = "boxed",
  children,
}: {
  label: string;
  columns: readonly DataColumn[];
  variant?: DataTableVariant;
  children: ReactNode;
}) {
  const styles = TABLE_STYLES[variant];
  return (
    <table className={styles.table} aria-label={label} data-variant={variant}>
      <thead className={styles.head}>
        <tr>
          {columns.map((column, index) =>
            column.hidden ? (
              <th key={index} className="px-3 py-2">
                <span className="sr-only">{column.header}</span>
              </th>
            ) : (
              <th key={index} className={joined("px-3 py-2 font-medium", column.align === "right" && "text-right")}>
                {column.header}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** One record of a DataTable; data-* attributes (test ids, ids) pass through to the row. */
export function DataRow({
  variant = "boxed",
  className,
  ...props
}: HTMLAttributes<HTMLTableRowElement> & { variant?: DataTableVariant }) {
  return <tr {...props} className={joined(ROW_STYLES[variant], className)} />;
}

/** A cell with the padding every table cell has; `className` adds the column's own look. */
export function DataCell({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td {...props} className={joined("px-3 py-2", className)} />;
}
