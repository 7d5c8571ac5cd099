import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import type { CrudColumn, CrudDefinition } from "../crud/types.ts";
import { changeCell, memberCell, moneyCell } from "./cells.tsx";

/**
 * A balance or points log, read-only: member, change, before, after, memo, time; searched by
 * member and time. Its `add` (an adjustment) is a row action of the members screen, not a
 * button here.
 */
export function accountLog(path: string, title: MessageDescriptor, column: "money" | "score"): CrudDefinition {
  const money = column === "money";
  const figure = (field: string, label: MessageDescriptor): CrudColumn => (money ? { field, label, cell: moneyCell(field) } : { field, label, render: "number" });
  return {
    path,
    title,
    quickSearch: msg`ID, member ID, username, nickname`,
    buttons: ["refresh", "columns", "search"],
    columns: [
      { field: "id", label: msg`ID`, render: "number", sortable: true },
      { field: "user_id", label: msg`Member ID`, render: "number", search: "number", hidden: true },
      { field: "username", label: msg`Member`, cell: memberCell, search: "text" },
      { field: column, label: money ? msg`Change` : msg`Points change`, cell: changeCell(column, money), sortable: true },
      figure("before", msg`Before`),
      figure("after", msg`After`),
      { field: "memo", label: msg`Memo` },
      { field: "create_time", label: msg`Time`, render: "datetime", sortable: true, search: "datetime" },
    ],
  };
}
