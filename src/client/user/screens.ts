import { lazy } from "react";
import type { ScreenRegistry } from "../routing/DynamicRoute.tsx";

/** Member-center screens by the `component` key of their menu rule; others show "coming soon". */
export const userScreens: ScreenRegistry = {
  "account/overview": lazy(() => import("./account/Overview.tsx")),
  "account/profile": lazy(() => import("./account/Profile.tsx")),
  "account/changePassword": lazy(() => import("./account/ChangePassword.tsx")),
  "account/face": lazy(() => import("../features/exam/FaceEnrolPage.tsx")),
  "account/balance": lazy(() => import("./account/MoneyLog.tsx")),
  "account/integral": lazy(() => import("./account/ScoreLog.tsx")),
  "course/index": lazy(() => import("../features/course/CataloguePage.tsx")),
  "course/my_course": lazy(() => import("../features/course/MyCoursesPage.tsx")),
  "exam/my_exam": lazy(() => import("../features/exam/MyExamsPage.tsx")),
  "learning/transcript": lazy(() => import("../features/reports/TranscriptPage.tsx")),
  "exam/certificate": lazy(() => import("../features/certificate/MyCertificatesPage.tsx")),
};
