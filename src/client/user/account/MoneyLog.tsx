import { AccountLogScreen } from "./LogTable.tsx";

/** `/user/account/balance`: the member's balance log. */
export default function MoneyLog() {
  return <AccountLogScreen kind="money" />;
}
