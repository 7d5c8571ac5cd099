import { Trans, useLingui } from "@lingui/react/macro";
import { CheckCircle2, FileDown } from "lucide-react";
import type { LessonDetail } from "../../../shared/course/types.ts";
import { recordLessonProgress, type LessonProgressRow, type MemberDb } from "../../offline/index.ts";
import { formatBytes } from "../../ui/format.ts";
import { Button } from "../../ui/Button.tsx";
import { TitledSection } from "../../ui/TitledSection.tsx";

type Lesson = LessonDetail["lesson"];

/** A text-only lesson counts as done when the member says so. */
export function MarkDone({ lesson, db, local }: { lesson: Lesson; db: MemberDb | undefined; local: LessonProgressRow | null | undefined }) {
  const { t } = useLingui();
  const done = lesson.progress.completed || Boolean(local?.completed);
  if (done) {
    return (
      <p role="status" className="inline-flex min-h-11 items-center gap-2 font-medium text-emerald-800 dark:text-emerald-300">
        <CheckCircle2 aria-hidden className="size-5" />
        {t`Lesson done`}
      </p>
    );
  }
  return (
    <Button
      variant="primary"
      disabled={!db}
      onClick={() => {
        if (db) void recordLessonProgress(db, { lessonId: lesson.id, courseId: lesson.courseId, position: 0, completed: true });
      }}
    >
      <CheckCircle2 aria-hidden className="size-5" />
      <Trans>Mark as done</Trans>
    </Button>
  );
}

/** The lesson's files to download; `href` turns a stored path into the URL to fetch. */
export function LessonAttachments({ files, href }: { files: Lesson["attachments"]; href: (url: string) => string }) {
  return (
    <TitledSection id="lesson-attachments" title={<Trans>Attachments</Trans>} className="space-y-2">
      <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-700 dark:bg-slate-900">
        {files.map((file) => (
          <li key={file.url}>
            <a
              href={href(file.url)}
              download={file.name}
              className="flex min-h-11 items-center gap-3 px-4 py-2 outline-none hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-primary dark:hover:bg-slate-800"
            >
              <FileDown aria-hidden className="size-5 shrink-0 text-primary" />
              <span className="min-w-0 flex-1 truncate">{file.name}</span>
              {file.size > 0 && <span className="text-sm text-slate-600 dark:text-slate-300">{formatBytes(file.size)}</span>}
            </a>
          </li>
        ))}
      </ul>
    </TitledSection>
  );
}
