import { scoreLogDecl } from "../../../shared/admin/resources/user.ts";
import { accountLog } from "./accountLogs.ts";

/** The points log (`user/scoreLog`). */
export default accountLog(scoreLogDecl, "score");
