import { msg } from "@lingui/core/macro";
import { accountLog } from "./accountLogs.ts";

/** The balance log (`user/moneyLog`), amounts in yuan. */
export default accountLog("user/moneyLog", msg`Balance log`, "money");
