import { moneyLogDecl } from "../../../shared/admin/resources/user.ts";
import { accountLog } from "./accountLogs.ts";

/** The balance log (`user/moneyLog`), amounts in yuan. */
export default accountLog(moneyLogDecl, "money");
