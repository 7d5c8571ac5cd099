import { msg } from "@lingui/core/macro";
import { accountLog } from "./accountLogs.ts";

/** The points log (`user/scoreLog`). */
export default accountLog("user/scoreLog", msg`Points log`, "score");
