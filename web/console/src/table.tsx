// The screens' tables, and the colour swatch their rows show a waste type with.
import type { ComponentChildren } from 'preact';

/** A table with a caption (its accessible name); `columns` say how to show each row. */
export function Table<T>({
  caption,
  rows,
  columns,
  rowKey,
  empty = 'Aucun élément.',
}: {
  caption: string;
  rows: T[];
  columns: { label: string; cell: (row: T) => ComponentChildren; class?: string }[];
  rowKey: (row: T) => string;
  empty?: string;
}) {
  if (rows.length === 0) return <p class="muted">{empty}</p>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col" class={c.class}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.label} class={c.class}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Swatch({ color }: { color: string | null }) {
  return <span class="swatch" style={{ background: color ?? '#6b7280' }} aria-hidden="true" />;
}

