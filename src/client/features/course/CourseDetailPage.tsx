import { useState } from "react";
import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AlertDialog } from "radix-ui";
import { CheckCircle2, Circle, Clock, FileText, Lock, LogIn, PlayCircle, ShoppingCart, Sparkles, WifiOff } from "lucide-react";
import { Link } from "react-router-dom";
import { useIdParam } from "../../routing/routeState.ts";
import { formatPrice, type CourseDetail, type LessonProgress, type LessonSummary } from "../../../shared/course/types.ts";
import { useCourseLessonProgress } from "../../offline/index.ts";
import { mergeLessonProgress, useOfflineDb } from "../../offline/index.ts";
import { useUserInfo } from "../../stores/userInfo.ts";
import { IconText } from "../../ui/IconText.tsx";
import { formatClock } from "../../ui/format.ts";
import { RichText } from "../../ui/RichText.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { useOnline } from "../../browser/useOnline.ts";
import { buyCourse, courseQueries, enrolCourse, refreshUserInfo } from "./api.ts";
import { CourseCover, CourseSize, PriceTag } from "./parts.tsx";
import { LoadFailed } from "../../ui/LoadFailed.tsx";
import { Button, buttonClass } from "../../ui/Button.tsx";
import { BackButton } from "../../ui/BackButton.tsx";

/** Percent of a lesson watched (0..100), from its position and duration. */
export function watchedPercent(progress: LessonProgress, duration: number): number {
  if (progress.completed) return 100;
  if (!(duration > 0) || !(progress.position > 0)) return 0;
  return Math.min(99, Math.max(0, Math.floor((progress.position / duration) * 100)));
}

/** The member's balance in cents from the stored member info ("12.50" yuan), or null when unknown. */
export function balanceCents(money: string | number | undefined): number | null {
  const n = typeof money === "number" ? money : Number(money);
  if (money === undefined || money === "" || !Number.isFinite(n)) return null;
  return Math.round(n * 100);
}

function LessonRow({ lesson, index, progress, canOpen, paid }: { lesson: LessonSummary; index: number; progress: LessonProgress; canOpen: boolean; paid: boolean }) {
  const { t } = useLingui();
  const percent = watchedPercent(progress, lesson.duration);
  const status = progress.completed
    ? t`Completed`
    : !lesson.hasVideo
      ? progress.lastWatched > 0
        ? t`Opened`
        : t`Not started`
      : percent > 0
        ? t`${percent}% watched`
        : t`Not started`;
  const Icon = progress.completed ? CheckCircle2 : !canOpen ? Lock : lesson.hasVideo ? PlayCircle : FileText;
  const number = index + 1;
  const body = (
    <>
      <Icon
        aria-hidden
        className={`size-6 shrink-0 ${progress.completed ? "text-emerald-700 dark:text-emerald-400" : canOpen ? "text-primary" : "text-slate-400"}`}
      />
      <span className="min-w-0 flex-1">
        <span className="block font-medium">
          <span className="text-slate-500 dark:text-slate-400">{number}. </span>
          {lesson.title}
        </span>
        <span className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600 dark:text-slate-300">
          {lesson.hasVideo && lesson.duration > 0 && (
            <span className="inline-flex items-center gap-1">
              <Clock aria-hidden className="size-3.5" />
              {formatClock(lesson.duration)}
            </span>
          )}
          {!lesson.hasVideo && (
            <span className="inline-flex items-center gap-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs dark:bg-slate-800">
              <FileText aria-hidden className="size-3.5" />
              {t`Text only`}
            </span>
          )}
          {lesson.freePreview && (
            <span className="inline-flex items-center gap-1 rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">
              <Sparkles aria-hidden className="size-3.5" />
              {t`Free preview`}
            </span>
          )}
          <span>{status}</span>
          {!canOpen && <span className="sr-only">{paid ? t`Buy the course to open this lesson` : t`Enrol to open this lesson`}</span>}
        </span>
        {lesson.hasVideo && percent > 0 && percent < 100 && (
          <span aria-hidden className="mt-2 block h-1.5 w-full max-w-48 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700">
            <span className="block h-full rounded-full bg-primary" style={{ width: `${percent}%` }} />
          </span>
        )}
      </span>
    </>
  );
  return (
    <li>
      {canOpen ? (
        <Link
          to={`/player/txPlayer?id=${lesson.id}`}
          className="flex min-h-14 items-start gap-3 rounded-lg px-3 py-3 outline-none hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-primary dark:hover:bg-slate-800"
        >
          {body}
        </Link>
      ) : (
        <div className="flex min-h-14 items-start gap-3 px-3 py-3 text-slate-600 dark:text-slate-300">{body}</div>
      )}
    </li>
  );
}

function BuyDialog({ detail, disabled }: { detail: CourseDetail; disabled: boolean }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const money = useUserInfo((s) => s.money);
  const balance = balanceCents(money);
  const { course } = detail;
  const price = `¥${formatPrice(course.price)}`;
  const title = course.title;
  const short = balance !== null && balance < course.price;
  const balanceText = balance === null ? "" : `¥${formatPrice(balance)}`;
  const buy = useMutation({
    mutationFn: () => buyCourse(course.id, course.price),
    onSuccess: async () => {
      setOpen(false);
      void refreshUserInfo();
      await queryClient.invalidateQueries({ queryKey: courseQueries.all() });
    },
  });
  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        // Show the balance as it is now, not as it was at login.
        if (next) void refreshUserInfo();
      }}
    >
      <AlertDialog.Trigger
        disabled={disabled}
        className={buttonClass("primary")}
      >
        <ShoppingCart aria-hidden className="size-5" />
        {t`Buy for ${price}`}
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 space-y-4 rounded-xl bg-white p-5 shadow-xl dark:bg-slate-900">
          <AlertDialog.Title className="text-lg font-semibold">
            <Trans>Buy this course?</Trans>
          </AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="space-y-2 text-slate-700 dark:text-slate-300">
              <p>{t`“${title}” costs ${price}, paid from your balance.`}</p>
              {balanceText && <p>{t`Your balance: ${balanceText}`}</p>}
              {short && <p className="font-medium text-red-700 dark:text-red-400">{t`Your balance is not enough for this course.`}</p>}
            </div>
          </AlertDialog.Description>
          <div className="flex justify-end gap-2">
            <AlertDialog.Cancel className={buttonClass("secondary")}>
              <Trans>Cancel</Trans>
            </AlertDialog.Cancel>
            <Button
              variant="primary"
              disabled={buy.isPending}
              onClick={() => buy.mutate()}
            >
              {buy.isPending && <Spinner className="size-4 text-white" />}
              {t`Pay ${price}`}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/** `started`: a lesson was opened or watched, on the server or on this device (not yet sent). */
function EnrolActions({ detail, started }: { detail: CourseDetail; started: boolean }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const online = useOnline();
  const loggedIn = useUserInfo((s) => Boolean(s.id && s.token));
  const enrol = useMutation({
    mutationFn: () => enrolCourse(detail.course.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: courseQueries.all() }),
  });
  const { continueLessonId, enrolment } = detail;

  if (enrolment) {
    return continueLessonId ? (
      <Link
        to={`/player/txPlayer?id=${continueLessonId}`}
        className={buttonClass("primary")}
      >
        <PlayCircle aria-hidden className="size-5" />
        {started ? t`Continue where you left off` : t`Start learning`}
      </Link>
    ) : null;
  }
  if (!loggedIn) {
    return (
      <Link to="/" className={buttonClass("primary")}>
        <LogIn aria-hidden className="size-5" />
        <Trans>Log in to enrol</Trans>
      </Link>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-3">
      {detail.course.price > 0 ? (
        <BuyDialog detail={detail} disabled={!online} />
      ) : (
        <Button
          variant="primary"
          disabled={!online || enrol.isPending}
          onClick={() => enrol.mutate()}
        >
          {enrol.isPending ? <Spinner className="size-5 text-white" /> : <CheckCircle2 aria-hidden className="size-5" />}
          <Trans>Enrol for free</Trans>
        </Button>
      )}
      {!online && (
        <IconText icon={WifiOff}>{t`Connect to the internet to enrol.`}</IconText>
      )}
    </div>
  );
}

/** `/course/lesson?id=`: a course's introduction, lessons with the member's progress, enrol or buy, continue. */
export default function CourseDetailPage() {
  const { t } = useLingui();
  const { id: courseId, valid } = useIdParam();
  const query = useQuery({ ...courseQueries.detail(courseId), enabled: valid });
  const db = useOfflineDb() ?? undefined;
  const local = useCourseLessonProgress(db, courseId);

  if (!valid) {
    return (
      <p className="py-12 text-center">
        <Link to="/user/course/index" className="text-primary underline">
          <Trans>Choose a course</Trans>
        </Link>
      </p>
    );
  }
  if (query.isPending) return <Spinner className="mx-auto my-16 size-8" />;
  if (query.isError) {
    return <LoadFailed message={t`This course could not be loaded.`} onRetry={() => void query.refetch()} backTo="/user/course/index" backLabel={<Trans>All courses</Trans>} />;
  }

  const detail = query.data;
  const { course, lessons, enrolment } = detail;
  const progressOf = (lesson: LessonSummary) => mergeLessonProgress(lesson.progress, local?.get(lesson.id));
  const merged = lessons.map(progressOf);
  const completed = merged.filter((p) => p.completed).length;
  const total = lessons.length;

  return (
    <article className="space-y-6">
      <BackButton to="/user/course/index" />
      <header className="grid gap-5 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div className="-mx-4 self-start overflow-hidden sm:mx-0 sm:rounded-xl">
          <CourseCover src={course.cover} first />
        </div>
        <div className="flex flex-col gap-3">
          {course.categoryTitle && <p className="text-sm text-slate-600 dark:text-slate-300">{course.categoryTitle}</p>}
          <h1 className="text-2xl leading-tight font-semibold">{course.title}</h1>
          {course.summary && <p className="text-slate-700 dark:text-slate-300">{course.summary}</p>}
          <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-600 dark:text-slate-300">
            <PriceTag cents={course.price} className="text-lg" />
            <CourseSize lessons={total} seconds={course.duration} />
            {enrolment && (
              <span className="inline-flex items-center gap-1 font-medium text-emerald-800 dark:text-emerald-300">
                <CheckCircle2 aria-hidden className="size-4" />
                {t`Enrolled`}
              </span>
            )}
          </div>
          {enrolment && total > 0 && <p className="text-sm text-slate-600 dark:text-slate-300">{t`${completed} of ${plural(total, { one: "# lesson", other: "# lessons" })} done`}</p>}
          <div className="mt-auto pt-2">
            <EnrolActions detail={detail} started={merged.some((p) => p.lastWatched > 0 || p.completed)} />
          </div>
        </div>
      </header>

      {course.introduction && (
        <section aria-labelledby="course-intro" className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-700 dark:bg-slate-900">
          <h2 id="course-intro" className="mb-3 text-lg font-semibold">
            <Trans>About this course</Trans>
          </h2>
          <RichText html={course.introduction} />
        </section>
      )}

      <section aria-labelledby="course-lessons" className="rounded-xl border border-slate-200 bg-white p-2 sm:p-3 dark:border-slate-700 dark:bg-slate-900">
        <h2 id="course-lessons" className="px-3 pt-2 pb-1 text-lg font-semibold">
          <Trans>Lessons</Trans>
        </h2>
        {total === 0 ? (
          <p className="flex items-center gap-2 px-3 py-4 text-slate-600 dark:text-slate-300">
            <Circle aria-hidden className="size-4" />
            {t`This course has no lessons yet.`}
          </p>
        ) : (
          <ol className="divide-y divide-slate-100 dark:divide-slate-800">
            {lessons.map((lesson, index) => (
              <LessonRow key={lesson.id} lesson={lesson} index={index} progress={merged[index]!} canOpen={Boolean(enrolment) || lesson.freePreview} paid={course.price > 0} />
            ))}
          </ol>
        )}
      </section>
    </article>
  );
}
