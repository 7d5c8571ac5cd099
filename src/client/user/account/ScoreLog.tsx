import { AccountLogScreen } from "./LogTable.tsx";

/** `/user/account/integral`: the member's points log. */
export default function ScoreLog() {
  return <AccountLogScreen kind="score" />;
}
