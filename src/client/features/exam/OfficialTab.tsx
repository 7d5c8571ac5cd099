import { useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Clock } from "lucide-react";
import { useSearchParams } from "react-router-dom";
import { formatTime } from "../../../shared/time.ts";
import { Spinner } from "../../ui/Spinner.tsx";
import { examQueries } from "./api.ts";
import { AttemptsLeft, EnterOfficialButton } from "./OfficialIntro.tsx";
import { Button } from "../../ui/Button.tsx";

/** `/exam/examTab/officialTest`: official exams open to the member, on the server's clock. */
export default function OfficialTab() {
  const { t } = useLingui();
  const catalog = useQuery(examQueries.catalog());
  const [nowSec] = useState(() => Math.floor(Date.now() / 1000));
  // `?room=`: the room linked from /exam/myTest, marked among the others.
  const [params] = useSearchParams();
  const linked = Number(params.get("room"));

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
          <li
            key={room.id}
            id={`room-${room.id}`}
            aria-current={linked === room.id ? "true" : undefined}
            className={`flex flex-wrap items-center gap-3 rounded-lg border bg-white p-4 dark:bg-slate-900 ${linked === room.id ? "border-primary" : "border-slate-200 dark:border-slate-700"}`}
          >
            <Clock aria-hidden className="size-5 text-primary" />
            <div className="min-w-0 flex-1">
              <p className="font-medium">{room.title}</p>
              <p className="text-sm text-slate-600 dark:text-slate-300">{t`${from} to ${to}, ${minutes} min per attempt`}</p>
              <p className="text-sm text-slate-600 dark:text-slate-300">
                <AttemptsLeft room={room} />
              </p>
            </div>
            {open ? (
              <EnterOfficialButton room={room} />
            ) : (
              <Button variant="primary" disabled>
                <Trans>Not open</Trans>
              </Button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
