import { useState } from "react";
import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { CalendarClock, Clock, History } from "lucide-react";
import { Link } from "react-router-dom";
import { attemptTitle, type Catalog, type ExamRecordRow } from "../../../shared/exam/catalog.ts";
import { formatTime } from "../../../shared/time.ts";
import { Pager, pageCountOf } from "../../ui/Pager.tsx";
import { IconText } from "../../ui/IconText.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { useOnline } from "../../browser/useOnline.ts";
import { examQueries } from "./api.ts";
import { AttemptsLeft, EnterOfficialButton } from "./OfficialIntro.tsx";
import { PassMark, RECORDS_PAGE_SIZE, examRecordsQuery } from "./RecordsTab.tsx";
import { Button } from "../../ui/Button.tsx";

type Room = Catalog["rooms"][number];

const card = "rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900";

function Failed({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useLingui();
  const online = useOnline();
  return (
    <div role="alert" className={`${card} space-y-3 text-center`}>
      <p>{message}</p>
      {!online && <p className="text-sm text-slate-600 dark:text-slate-300">{t`You are offline: connect to the internet and try again.`}</p>}
      <Button variant="primary" onClick={onRetry}>
        <Trans>Try again</Trans>
      </Button>
    </div>
  );
}

/** An exam room open now or coming up: its times, and "Enter the exam" while it is open. */
function RoomRow({ room, nowSec }: { room: Room; nowSec: number }) {
  const { t } = useLingui();
  const online = useOnline();
  const open = nowSec >= room.startTime && nowSec < room.endTime;
  const from = formatTime(room.startTime, "YYYY-MM-DD HH:mm");
  const to = formatTime(room.endTime, "YYYY-MM-DD HH:mm");
  const minutes = Math.round(room.duration / 60);
  const attempts = room.attemptsAllowed;

  return (
    <li className={`${card} flex flex-col gap-3 sm:flex-row sm:items-center`}>
      <Clock aria-hidden className="hidden size-6 shrink-0 text-primary sm:block" />
      <div className="min-w-0 flex-1 space-y-1">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{room.title}</span>
          {open ? (
            <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200">{t`Open now`}</span>
          ) : (
            <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200">{t`Upcoming`}</span>
          )}
        </p>
        <p className="text-sm text-slate-600 dark:text-slate-300">{t`${from} to ${to}`}</p>
        <p className="text-sm text-slate-600 dark:text-slate-300">{t`${plural(minutes, { one: "# minute", other: "# minutes" })} per attempt, ${plural(attempts, { one: "# attempt", other: "# attempts" })} allowed`}</p>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          <AttemptsLeft room={room} />
        </p>
      </div>
      {open ? (
        <EnterOfficialButton room={room} disabled={!online} />
      ) : (
        <IconText icon={CalendarClock} as="p">
          {t`Opens ${from}`}
        </IconText>
      )}
    </li>
  );
}

function AttemptRow({ record }: { record: ExamRecordRow }) {
  const { t } = useLingui();
  const when = formatTime(record.submittedAt ?? record.startedAt, "YYYY-MM-DD HH:mm");
  const score = record.score;
  const total = record.totalScore;
  const inProgress = record.status === "open";
  const target = inProgress && record.kind === "official" ? `/exam/my_test_detail?official=${encodeURIComponent(record.uuid)}` : `/exam/examResult?uuid=${encodeURIComponent(record.uuid)}`;
  return (
    <li className={`${card} flex flex-wrap items-center gap-x-4 gap-y-1`}>
      <Link to={target} className="min-w-0 flex-1 basis-56 font-medium text-primary underline-offset-2 hover:underline">
        {attemptTitle(record)}
      </Link>
      <span className="text-sm text-slate-600 dark:text-slate-300">{record.kind === "official" ? t`Official exam` : t`Mock exam`}</span>
      {inProgress ? (
        <span className="text-sm font-medium text-amber-800 dark:text-amber-200">{t`In progress`}</span>
      ) : (
        <span className="text-sm tabular-nums">{score === null ? t`Not graded yet` : t`Score ${score} / ${total}`}</span>
      )}
      <PassMark passed={record.passed} />
      <span className="text-sm text-slate-600 tabular-nums dark:text-slate-300">{when}</span>
    </li>
  );
}

/**
 * Member center "My exams" (component `exam/my_exam`): the exam rooms open now or coming up
 * (from `/api/exam/catalog`) and the member's attempts with their scores (`/api/exam/records`),
 * linking to the exam and to each result.
 */
export default function MyExamsPage() {
  const { t } = useLingui();
  const catalog = useQuery(examQueries.catalog());
  const [page, setPage] = useState(1);
  const records = useQuery(examRecordsQuery(page));
  const [nowSec] = useState(() => Math.floor(Date.now() / 1000));
  const rooms = (catalog.data?.rooms ?? []).filter((r) => r.endTime > nowSec);
  const total = records.data?.total ?? 0;

  return (
    <div className="space-y-8">
      <h1 className="text-xl font-semibold">
        <Trans>My exams</Trans>
      </h1>

      <section aria-labelledby="my-exams-rooms" className="space-y-3">
        <h2 id="my-exams-rooms" className="flex items-center gap-2 text-lg font-semibold">
          <CalendarClock aria-hidden className="size-5 text-primary" />
          <Trans>Open and upcoming exams</Trans>
        </h2>
        {catalog.isPending ? (
          <Spinner className="mx-auto my-8 size-8" />
        ) : catalog.isError ? (
          <Failed message={t`The exam list could not be loaded.`} onRetry={() => void catalog.refetch()} />
        ) : rooms.length === 0 ? (
          <div className={`${card} text-center text-slate-600 dark:text-slate-300`}>
            <p>{t`No exam is open or coming up for you.`}</p>
            <Link to="/exam/myTest" className="mt-2 inline-flex min-h-11 items-center text-primary underline-offset-2 hover:underline">
              <Trans>Practise and take mock exams</Trans>
            </Link>
          </div>
        ) : (
          <ul className="space-y-3">
            {rooms.map((room) => (
              <RoomRow key={room.id} room={room} nowSec={nowSec} />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="my-exams-attempts" className="space-y-3">
        <h2 id="my-exams-attempts" className="flex items-center gap-2 text-lg font-semibold">
          <History aria-hidden className="size-5 text-primary" />
          <Trans>My attempts</Trans>
        </h2>
        {records.isPending ? (
          <Spinner className="mx-auto my-8 size-8" />
        ) : records.isError ? (
          <Failed message={t`The exam records could not be loaded.`} onRetry={() => void records.refetch()} />
        ) : records.data.list.length === 0 ? (
          <p className={`${card} text-center text-slate-600 dark:text-slate-300`}>{t`You have not taken an exam yet.`}</p>
        ) : (
          <>
            <ul className="space-y-2" aria-busy={records.isPlaceholderData}>
              {records.data.list.map((record) => (
                <AttemptRow key={record.uuid} record={record} />
              ))}
            </ul>
            <Pager page={page} pageCount={pageCountOf(total, RECORDS_PAGE_SIZE)} onPage={setPage} />
          </>
        )}
      </section>
    </div>
  );
}
