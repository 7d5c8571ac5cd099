import { useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { request } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";
import { crudUrl } from "../crud/api.ts";
import type { CrudRow } from "../crud/types.ts";
import { FaceTimeline } from "./FaceTimeline.tsx";
import { FACE_FLAG_OPTIONS } from "./options.ts";
import { PageSpinner } from "../../ui/PageSpinner.tsx";

/**
 * The marking queue's face part (toolbar "Face checks to review"): official attempts flagged or
 * stopped by their face rule and not reviewed yet (`GET /admin/exam/faceReview/index`), each
 * opening its snapshot timeline, where a marker clears the flag.
 */
export function FlaggedFaceAttempts({ onDone }: { onDone: () => void }) {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState<CrudRow | null>(null);
  const list = useQuery({
    queryKey: ["crud", "exam/faceReview", "flagged"],
    queryFn: async ({ signal }) =>
      (
        await request<{ list: CrudRow[]; total: number }>({
          url: crudUrl("exam/faceReview", "index"),
          method: "get",
          params: { limit: 100, order: "id,asc", "search[0][field]": "face_flag", "search[0][val]": "flagged,stopped", "search[0][operator]": "IN" },
          signal,
        })
      ).data,
  });
  if (open) return <FaceTimeline row={open} onDone={() => setOpen(null)} />;
  if (list.isPending) return <PageSpinner />;
  if (!list.data) return <p role="alert">{t`The face checks could not be loaded`}</p>;
  if (list.data.list.length === 0)
    return (
      <div className="space-y-3 text-sm">
        <p>{t`No attempt waits for a face review.`}</p>
        <Button onClick={onDone}>{t`Close`}</Button>
      </div>
    );
  const flagLabel = (value: unknown) => {
    const found = FACE_FLAG_OPTIONS.find((o) => o.value === value);
    return found ? i18n._(found.label) : String(value);
  };
  return (
    <ul className="divide-y text-sm" aria-label={t`Attempts flagged by face checks`}>
      {list.data.list.map((row) => {
        const failures = Number(row.face_failures);
        const missed = Number(row.missed ?? 0);
        return (
          <li key={String(row.id)} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <span>
              <span className="font-medium">{String(row.username)}</span> · {String(row.room_title)} · {flagLabel(row.face_flag)} · {t`failed checks: ${failures}`}
              {missed > 0 && <span className="text-red-700 dark:text-red-300"> · {t`reason: missed check (${missed})`}</span>}
            </span>
            <Button onClick={() => setOpen(row)}>
              <Trans>Timeline</Trans>
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
