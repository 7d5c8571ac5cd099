import type { ResourceDecl } from "../../../shared/admin/fields.ts";
import { declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { changeCell, memberCell, moneyCell } from "./cells.tsx";

/**
 * A balance or points log, read-only: member, change, before, after, memo, time; searched by
 * member and time. Its `add` (an adjustment) is a row action of the members screen, not a
 * button here.
 */
export function accountLog(decl: ResourceDecl, column: "money" | "score"): CrudDefinition {
  const money = column === "money";
  return {
    ...declaredScreen(decl, {
      username: memberCell,
      [column]: changeCell(column, money),
      // A balance's figures in yuan (kept in cents).
      ...(money ? { before: moneyCell("before"), after: moneyCell("after") } : {}),
    }),
    buttons: ["refresh", "columns", "search"],
  };
}
