import type { ScreenRegistry } from "../routing/DynamicRoute.tsx";
import { lazyScreen } from "../routing/lazyScreen.ts";
import { definitionScreen } from "./crud/definitionScreen.tsx";

/**
 * Back-office screens by the `component` key of their menu rule; others show "coming soon".
 * A screen made from a CRUD definition (crud/types.ts) registers with
 * `definitionScreen(() => import("./<area>/<resource>.ts"))` from crud/definitionScreen.tsx.
 */
export const adminScreens: ScreenRegistry = {
  dashboard: lazyScreen(() => import("./Dashboard.tsx")),
  "reports/progress": lazyScreen(() => import("./reports/ProgressReport.tsx")),
  "auth/admin": definitionScreen(() => import("./auth/admins.ts")),
  "auth/group": definitionScreen(() => import("./auth/groups.ts")),
  "auth/rule": definitionScreen(() => import("./auth/rules.ts")),
  "auth/adminLog": definitionScreen(() => import("./auth/adminLog.ts")),
  "security/dataRecycle": definitionScreen(() => import("./security/dataRecycle.ts")),
  "security/dataRecycleLog": definitionScreen(() => import("./security/dataRecycleLog.ts")),
  "security/sensitiveData": definitionScreen(() => import("./security/sensitiveData.ts")),
  "security/sensitiveDataLog": definitionScreen(() => import("./security/sensitiveDataLog.ts")),
  "routine/attachment": definitionScreen(() => import("./routine/attachments.tsx")),
  "routine/config": lazyScreen(() => import("./routine/Config.tsx")),
  "org/company": definitionScreen(() => import("./org/companies.ts")),
  "org/duty": definitionScreen(() => import("./org/duties.ts")),
  "org/classroom": definitionScreen(() => import("./org/classrooms.ts")),
  "user/user": definitionScreen(() => import("./user/members.ts")),
  "user/group": definitionScreen(() => import("./user/groups.ts")),
  "user/rule": definitionScreen(() => import("./user/rules.ts")),
  "user/moneyLog": definitionScreen(() => import("./user/moneyLog.ts")),
  "user/scoreLog": definitionScreen(() => import("./user/scoreLog.ts")),
  "user/notice": definitionScreen(() => import("./user/notices.ts")),
  "course/category": definitionScreen(() => import("./course/categories.ts")),
  "course/course": definitionScreen(() => import("./course/courses.ts")),
  "course/lesson": definitionScreen(() => import("./course/lessons.ts")),
  "exam/paper": definitionScreen(() => import("./exam/papers.ts")),
  "exam/paperRow": definitionScreen(() => import("./exam/paperRows.ts")),
  "exam/room": definitionScreen(() => import("./exam/rooms.ts")),
  "exam/marking": definitionScreen(() => import("./exam/marking.ts")),
  "exam/lateAnswer": definitionScreen(() => import("./exam/lateAnswers.ts")),
  "exam/faceReview": definitionScreen(() => import("./exam/faceReview.ts")),
  "org/faceRule": definitionScreen(() => import("./org/faceRules.ts")),
  "exam/certificateTemplate": definitionScreen(() => import("./exam/certificateTemplates.ts")),
  "exam/certificate": definitionScreen(() => import("./exam/certificates.ts")),
  "exam/classify": definitionScreen(() => import("./exam/classify.ts")),
  "exam/questionType": definitionScreen(() => import("./exam/questionTypes.ts")),
  "exam/question": definitionScreen(() => import("./exam/questions.ts")),
  // The code generator and the screens it generates (one component, the design read from the server).
  "crud/crud": lazyScreen(() => import("./codegen/CodeGenerator.tsx")),
  "crud/generated": lazyScreen(() => import("./codegen/GeneratedScreen.tsx")),
  // The module market and every module's screens (one component, the table's definition read from the server).
  "moduleStore/moduleStore": lazyScreen(() => import("./market/ModuleMarket.tsx")),
  "mod/screen": lazyScreen(() => import("./market/ModuleScreen.tsx")),
};
