import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { BookOpen, CheckCircle2, PlayCircle } from "lucide-react";
import { Link } from "react-router-dom";
import type { MyCourse } from "../../../shared/course/types.ts";
import { formatTime } from "../../../shared/time.ts";
import { courseQueries } from "./api.ts";
import { CourseCover, ProgressBar } from "./parts.tsx";
import { buttonClass } from "../../ui/Button.tsx";
import { QueryView } from "../../ui/QueryView.tsx";

/** Where "Continue" goes: the lesson to continue with, else the course page. */
export function continueTarget(course: Pick<MyCourse, "id" | "continueLessonId">): string {
  return course.continueLessonId ? `/player/txPlayer?id=${course.continueLessonId}` : `/course/lesson?id=${course.id}`;
}

function MyCourseRow({ course, first }: { course: MyCourse; first: boolean }) {
  const { t } = useLingui();
  const percent = Math.min(100, Math.max(0, Math.round(course.percent)));
  const done = course.completedLessons;
  const total = course.lessonCount;
  const title = course.title;
  const finished = total > 0 && done >= total;
  const lastWatched = course.lastWatched > 0 ? formatTime(course.lastWatched, "YYYY-MM-DD HH:mm") : "";
  return (
    <li className="flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm sm:flex-row dark:border-slate-700 dark:bg-slate-900">
      <Link to={`/course/lesson?id=${course.id}`} tabIndex={-1} aria-hidden className="sm:w-56 sm:shrink-0">
        <CourseCover src={course.cover} className="h-full" first={first} />
      </Link>
      <div className="flex flex-1 flex-col gap-3 p-4">
        <h2 className="text-lg leading-snug font-medium">
          <Link to={`/course/lesson?id=${course.id}`} className="hover:text-primary hover:underline">
            {course.title}
          </Link>
        </h2>
        <div className="space-y-1.5">
          <ProgressBar percent={percent} label={t`Progress of ${title}`} />
          <p className="flex flex-wrap items-center justify-between gap-x-3 text-sm text-slate-600 dark:text-slate-300">
            <span className="inline-flex items-center gap-1">
              {finished && <CheckCircle2 aria-hidden className="size-4 text-emerald-700 dark:text-emerald-400" />}
              {finished ? t`Completed` : t`${percent}% complete`}
            </span>
            <span>{t`${done} of ${plural(total, { one: "# lesson", other: "# lessons" })} done`}</span>
          </p>
          {lastWatched && <p className="text-xs text-slate-500 dark:text-slate-400">{t`Last studied ${lastWatched}`}</p>}
        </div>
        <div className="mt-auto flex flex-wrap gap-2">
          <Link
            to={continueTarget(course)}
            className={buttonClass("primary")}
          >
            <PlayCircle aria-hidden className="size-5" />
            {done > 0 || percent > 0 || course.lastWatched > 0 ? t`Continue learning` : t`Start learning`}
          </Link>
          <Link to={`/course/lesson?id=${course.id}`} className={buttonClass("secondary")}>
            <Trans>Lessons</Trans>
          </Link>
        </div>
      </div>
    </li>
  );
}

/** Member center "My courses" (component `course/my_course`, the page after login). */
export default function MyCoursesPage() {
  const { t } = useLingui();
  const query = useQuery(courseQueries.my());
  return (
    <section className="space-y-4" aria-labelledby="my-courses-title">
      <h1 id="my-courses-title" className="text-xl font-semibold">
        <Trans>My courses</Trans>
      </h1>
      <QueryView query={query} failed={t`Your courses could not be loaded.`}>
        {(found) =>
          found.list.length === 0 ? (
            <div className="mx-auto max-w-md space-y-4 rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center dark:border-slate-600 dark:bg-slate-900">
              <BookOpen aria-hidden className="mx-auto size-12 text-slate-400" />
              <p className="text-slate-700 dark:text-slate-200">{t`You have not enrolled in any course yet.`}</p>
              <Link to="/user/course/index" className={buttonClass("primary")}>
                <Trans>Browse courses</Trans>
              </Link>
            </div>
          ) : (
            <ul className="space-y-4">
              {found.list.map((course, index) => (
                <MyCourseRow key={course.id} course={course} first={index === 0} />
              ))}
            </ul>
          )
        }
      </QueryView>
    </section>
  );
}
