import { useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Clock } from "lucide-react";
import { useNavigate } from "react-router-dom";
import { formatTime } from "../../../shared/time.ts";
import { Spinner } from "../../ui/Spinner.tsx";
import { examQueries } from "./api.ts";
import { startOfficial } from "./official.ts";

/** `/exam/examTab/officialTest`: official exams open to the member, on the server's clock. */
export default function OfficialTab() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const catalog = useQuery(examQueries.catalog());
  const [busy, setBusy] = useState<number | null>(null);
  const [nowSec] = useState(() => Math.floor(Date.now() / 1000));

  async function start(roomId: number) {
    setBusy(roomId);
    try {
      const attempt = await startOfficial(roomId);
      void navigate(`/exam/my_test_detail?official=${attempt.attempt.uuid}`);
    } catch {
      // The request layer shows why (not open yet, ended, no attempts left...).
    } finally {
      setBusy(null);
    }
  }

  if (catalog.isPending) return <Spinner className="mx-auto my-12 size-8" />;
  if (catalog.isError) return <p className="py-8 text-center">{t`The exam list could not be loaded.`}</p>;
  if (catalog.data.rooms.length === 0) return <p className="py-12 text-center text-slate-600 dark:text-slate-300">{t`No official exam is open for you.`}</p>;
  return (
    <ul className="space-y-3">
      {catalog.data.rooms.map((room) => {
        const from = formatTime(room.startTime, "YYYY-MM-DD HH:mm");
        const to = formatTime(room.endTime, "YYYY-MM-DD HH:mm");
        const minutes = Math.round(room.duration / 60);
        const open = nowSec >= room.startTime && nowSec < room.endTime;
        return (
          <li key={room.id} className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900">
            <Clock aria-hidden className="size-5 text-primary" />
            <div className="min-w-0 flex-1">
              <p className="font-medium">{room.title}</p>
              <p className="text-sm text-slate-600 dark:text-slate-300">{t`${from} to ${to}, ${minutes} min per attempt`}</p>
            </div>
            <button
              type="button"
              disabled={!open || busy !== null}
              onClick={() => void start(room.id)}
              className="min-h-11 rounded-md bg-primary px-5 font-medium text-white hover:bg-primary-strong disabled:opacity-50"
            >
              {open ? <Trans>Enter the exam</Trans> : <Trans>Not open</Trans>}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
