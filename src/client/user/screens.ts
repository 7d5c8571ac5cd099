import type { ScreenRegistry } from "../routing/DynamicRoute.tsx";
import { lazyScreen } from "../routing/lazyScreen.ts";

/** Member-center screens by the `component` key of their menu rule; others show "coming soon". */
export const userScreens: ScreenRegistry = {
  "account/overview": lazyScreen(() => import("./account/Overview.tsx")),
  "account/profile": lazyScreen(() => import("./account/Profile.tsx")),
  "account/changePassword": lazyScreen(() => import("./account/ChangePassword.tsx")),
  "account/face": lazyScreen(() => import("../features/exam/FaceEnrolPage.tsx")),
  "account/balance": lazyScreen(() => import("./account/MoneyLog.tsx")),
  "account/integral": lazyScreen(() => import("./account/ScoreLog.tsx")),
  "course/index": lazyScreen(() => import("../features/course/CataloguePage.tsx")),
  "course/my_course": lazyScreen(() => import("../features/course/MyCoursesPage.tsx")),
  "exam/my_exam": lazyScreen(() => import("../features/exam/MyExamsPage.tsx")),
  "learning/transcript": lazyScreen(() => import("../features/reports/TranscriptPage.tsx")),
  "exam/certificate": lazyScreen(() => import("../features/certificate/MyCertificatesPage.tsx")),
};
