import type { ReactNode } from "react";
import { PlainTable, TBody, Td, Th, THead, Tr } from "./Table.tsx";

export interface FiguresColumn<T> {
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** The body cells are the rows' headers (`<th scope="row">`). */
  rowHeader?: boolean;
}

/**
 * A few rows of figures with the look of DataTable's bare table (ui/PlainTable), without its
 * table library (TanStack Table: about 20 KiB gzipped, sorting, sizing, cards): for a short table
 * nobody sorts, such as the figures beside a chart that screen readers get (the member center's
 * overview). Lists still go through DataTable.
 */
export function FiguresTable<T>({
  caption,
  columns,
  data,
  rowKey,
  id,
  className,
}: {
  caption: ReactNode;
  columns: FiguresColumn<T>[];
  data: T[];
  rowKey: (row: T) => string | number;
  id?: string;
  className?: string;
}) {
  return (
    <PlainTable caption={caption} id={id} className={className}>
      <THead>
        <tr>
          {columns.map((column) => (
            <Th key={column.id}>{column.header}</Th>
          ))}
        </tr>
      </THead>
      <TBody>
        {data.map((row) => (
          <Tr key={rowKey(row)}>
            {columns.map((column) => (column.rowHeader ? <Th key={column.id} scope="row">{column.cell(row)}</Th> : <Td key={column.id}>{column.cell(row)}</Td>))}
          </Tr>
        ))}
      </TBody>
    </PlainTable>
  );
}
