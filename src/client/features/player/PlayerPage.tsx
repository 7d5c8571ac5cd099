import { useEffect } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { ChevronLeft, ChevronRight, CloudOff } from "lucide-react";
import { Link } from "react-router-dom";
import { useIdParam } from "../../routing/routeState.ts";
import type { LessonDetail } from "../../../shared/course/types.ts";
import { fullUrl } from "../../../shared/url.ts";
import { useLessonProgress } from "../../offline/index.ts";
import { recordLessonProgress, useOfflineDb } from "../../offline/index.ts";
import { useSiteConfig } from "../../stores/siteConfig.ts";
import { LoadFailed } from "../../ui/LoadFailed.tsx";
import { RichText } from "../../ui/RichText.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { playerQueries } from "./api.ts";
import { LessonAttachments, MarkDone } from "./LessonParts.tsx";
import { OfflineVideo } from "./OfflineVideo.tsx";
import { VideoPlayer } from "./VideoPlayer.tsx";
import { Button, buttonClass } from "../../ui/Button.tsx";
import { ApiError, serverRefusal } from "../../api/index.ts";
import { useOnline } from "../../browser/useOnline.ts";
import { ButtonLink } from "../../ui/ButtonLink.tsx";

/**
 * The lesson page: composition of the video player (VideoPlayer: HLS source, progress recording,
 * keyboard shortcuts, each its own hook), previous and next, "save for offline", the notes and
 * the attachments.
 */
function LessonView({ detail }: { detail: LessonDetail }) {
  const { t } = useLingui();
  const { lesson, course, prevLessonId, nextLessonId } = detail;
  const db = useOfflineDb() ?? undefined;
  const local = useLessonProgress(db, lesson.id);
  const cdnUrl = useSiteConfig((s) => s.cdnUrl);
  const apiUrl = useSiteConfig((s) => s.apiUrl);
  const src = fullUrl(lesson.videoUrl, cdnUrl, apiUrl);
  const hasVideo = lesson.hasVideo && Boolean(src);

  // Opening a text-only lesson counts as studying it (the course's "continue" goes by it).
  useEffect(() => {
    if (!db || hasVideo) return;
    void recordLessonProgress(db, { lessonId: lesson.id, courseId: lesson.courseId, position: 0, completed: lesson.progress.completed }).catch(() => undefined);
  }, [db, hasVideo, lesson]);

  const navClass =
    "inline-flex min-h-11 items-center gap-1 rounded-md border border-slate-300 px-3 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800";
  return (
    <article className="space-y-5">
      <header className="space-y-1">
        <Link to={`/course/lesson?id=${course.id}`} className="inline-flex min-h-11 items-center gap-1 text-sm text-primary hover:underline">
          <ChevronLeft aria-hidden className="size-4" />
          {course.title}
        </Link>
        <h1 className="text-xl leading-snug font-semibold sm:text-2xl">{lesson.title}</h1>
      </header>

      {hasVideo ? <VideoPlayer lesson={lesson} src={src} db={db} local={local} /> : null}

      {/* A text lesson's "done" on a row of its own: beside previous and next it pushed "next" under "previous" on a phone. */}
      {!hasVideo && <MarkDone lesson={lesson} db={db} local={local} />}
      <nav aria-label={t`Lessons`} className="flex items-center justify-between gap-2">
        {prevLessonId ? (
          <Link to={`/player/txPlayer?id=${prevLessonId}`} className={navClass}>
            <ChevronLeft aria-hidden className="size-4" />
            <Trans>Previous lesson</Trans>
          </Link>
        ) : (
          <span />
        )}
        {nextLessonId ? (
          <Link to={`/player/txPlayer?id=${nextLessonId}`} className={navClass}>
            <Trans>Next lesson</Trans>
            <ChevronRight aria-hidden className="size-4" />
          </Link>
        ) : (
          <Link to={`/course/lesson?id=${course.id}`} className={navClass}>
            <Trans>Back to the course</Trans>
          </Link>
        )}
      </nav>

      {hasVideo && <OfflineVideo url={src} videoType={lesson.videoType} videoSize={lesson.videoSize} />}

      {lesson.content && (
        <section aria-label={t`Lesson notes`} className="rounded-xl border border-slate-200 bg-white p-5 text-base sm:text-lg dark:border-slate-700 dark:bg-slate-900">
          <RichText html={lesson.content} />
        </section>
      )}

      {lesson.attachments.length > 0 && <LessonAttachments files={lesson.attachments} href={(url) => fullUrl(url, cdnUrl, apiUrl)} />}
    </article>
  );
}

/**
 * A lesson opened offline that this device has not kept (a lesson is kept once it has been opened
 * online): why it cannot open, and, once online, the way to open it and so keep it.
 */
function LessonNotSaved({ online, onOpen }: { online: boolean; onOpen: () => void }) {
  const { t } = useLingui();
  return (
    <div role="alert" className="mx-auto max-w-md space-y-3 py-12 text-center">
      <CloudOff aria-hidden className="mx-auto size-8 text-slate-500" />
      <p className="font-medium">{t`This lesson is not saved on this device, so it cannot open offline.`}</p>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {online ? t`You are online again: open it now and it is kept on this device for next time.` : t`When you are back online it opens here and is kept on this device for next time.`}
      </p>
      <div className="flex justify-center gap-2">
        {online && (
          <Button variant="primary" onClick={onOpen}>
            {t`Open and save it`}
          </Button>
        )}
        <ButtonLink to="/user/course/my_course">
          <Trans>My courses</Trans>
        </ButtonLink>
      </div>
    </div>
  );
}

/** `/player/txPlayer?id=<lessonId>`: a lesson's video (or text), notes, attachments, previous and next. */
export default function PlayerPage() {
  const { t } = useLingui();
  const { id: lessonId, valid } = useIdParam();
  const query = useQuery({ ...playerQueries.lesson(lessonId), enabled: valid });
  const online = useOnline();
  // Back online, the lesson the device could not open is asked for again, and the service worker
  // keeps it for offline. (TanStack Query's own refetch on reconnect misses a page that was
  // opened offline: it takes the device for online until it sees it go offline.)
  const unreachable = query.isError && query.error instanceof ApiError && query.error.network;
  const { refetch } = query;
  useEffect(() => {
    if (!unreachable) return;
    const retry = () => void refetch();
    window.addEventListener("online", retry);
    return () => window.removeEventListener("online", retry);
  }, [unreachable, refetch]);

  if (!valid) {
    return (
      <p className="py-12 text-center">
        <Link to="/user/course/my_course" className="text-primary underline">
          <Trans>Choose a lesson from your courses</Trans>
        </Link>
      </p>
    );
  }
  if (query.isPending) return <Spinner className="mx-auto my-16 size-8" />;
  if (query.isError) {
    // Refused because the member is not enrolled: the way on is the course page.
    const courseId = (query.error as { data?: { courseId?: unknown } } | null)?.data?.courseId;
    if (typeof courseId === "number") {
      return (
        <div role="alert" className="mx-auto max-w-md space-y-3 py-12 text-center">
          <p>{t`Enrol in the course to watch this lesson.`}</p>
          <Link to={`/course/lesson?id=${courseId}`} className={buttonClass("primary")}>
            <Trans>Go to the course</Trans>
          </Link>
        </div>
      );
    }
    if (!online || unreachable) return <LessonNotSaved online={online} onOpen={() => void query.refetch()} />;
    return (
      <LoadFailed
        message={t`This lesson could not be opened.`}
        detail={serverRefusal(query.error)?.msg}
        onRetry={() => void query.refetch()}
        backTo="/user/course/my_course"
        backLabel={<Trans>My courses</Trans>}
      />
    );
  }
  // A new lesson is a new player (its own state, and the previous one reports on its way out).
  return <LessonView key={query.data.lesson.id} detail={query.data} />;
}
