import { useEffect, useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FaceTimeline as Timeline } from "../../../shared/exam/face.ts";
import { request } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";
import { Auth } from "../../routing/auth.tsx";
import { crudKeys, crudUrl } from "../crud/api.ts";
import { actionNode } from "../crud/CrudScreen.tsx";
import type { CrudOption, CrudRow } from "../crud/types.ts";
import { FACE_FLAG_OPTIONS, FACE_VERDICT_OPTIONS } from "./options.ts";
import { PageSpinner } from "../../ui/PageSpinner.tsx";

/** A snapshot, fetched with the admin's token (an <img> cannot send it) and shown from a blob URL. */
function Snapshot({ id, alt }: { id: number; alt: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let made: string | null = null;
    let cancelled = false;
    request({ url: crudUrl("exam/faceReview", "picture"), method: "get", params: { id }, responseType: "blob" }, { reductDataFormat: false, showErrorMessage: false, showCodeMessage: false })
      .then((res) => {
        if (cancelled) return;
        made = URL.createObjectURL((res as unknown as { data: Blob }).data);
        setUrl(made);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [id]);
  return url ? <img src={url} alt={alt} className="aspect-[4/3] w-full rounded object-cover" /> : <div className="aspect-[4/3] w-full animate-pulse rounded bg-slate-200 dark:bg-slate-700" />;
}

/**
 * An attempt's face checks (row action "Timeline", `GET /admin/exam/faceReview/timeline`): each
 * snapshot at its time into the attempt, with the server's verdict, similarity against the
 * threshold and the device's hint; "Mark as reviewed" clears a flag (`POST review`).
 */
export function FaceTimeline({ row, onDone }: { row: CrudRow; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const client = useQueryClient();
  const timeline = useQuery({
    queryKey: ["crud", "exam/faceReview", "timeline", row.id],
    queryFn: async ({ signal }) => (await request<Timeline>({ url: crudUrl("exam/faceReview", "timeline"), method: "get", params: { id: row.id }, signal })).data,
  });
  const review = useMutation({
    mutationFn: () => request({ url: crudUrl("exam/faceReview", "review"), method: "post", data: { id: row.id } }, { showSuccessMessage: true }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: crudKeys.all("exam/faceReview") });
      onDone();
    },
  });
  if (timeline.isPending) return <PageSpinner />;
  if (!timeline.data) return <p role="alert">{t`The face checks could not be loaded`}</p>;
  const { attempt, checks } = timeline.data;
  const label = (options: CrudOption[], value: string) => {
    const found = options.find((o) => o.value === value);
    return found ? i18n._(found.label) : value;
  };
  const startMs = attempt.startedAt * 1000;
  const at = (ms: number) => {
    const s = Math.max(0, Math.round((ms - startMs) / 1000));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  };
  const failures = attempt.failures;
  const max = attempt.maxFailures ?? 0;
  const threshold = attempt.threshold;
  const missed = checks.filter((c) => c.verdict === "missed").length;
  return (
    <div className="space-y-4 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p>
          <span className="font-medium">{attempt.username}</span> · {attempt.roomTitle} · {t`failed checks ${failures} of ${max}`}
          {threshold !== null && <> · {t`similarity needed ${threshold}`}</>}
          {missed > 0 && <span className="text-red-700 dark:text-red-300"> · {t`missed checks ${missed}`}</span>}
        </p>
        <span className="rounded bg-slate-100 px-2 py-0.5 dark:bg-slate-800">{label(FACE_FLAG_OPTIONS, attempt.flag)}</span>
      </div>
      {checks.length === 0 ? (
        <p>{t`No face check reached the server for this attempt.`}</p>
      ) : (
        <ol className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" aria-label={t`Face checks in time order`}>
          {checks.map((c) => {
            const passed = c.verdict === "pass";
            const never = c.verdict === "missed";
            const time = at(c.takenAt);
            const similarity = c.similarity === null ? "–" : c.similarity.toFixed(2);
            const device = c.deviceVerdict;
            return (
              <li key={c.id} data-verdict={c.verdict} className={`space-y-1 rounded-lg border p-2 ${passed ? "border-green-300 dark:border-green-800" : "border-red-300 dark:border-red-800"} ${never ? "border-dashed" : ""}`}>
                {c.picture ? (
                  <Snapshot id={c.id} alt={t`Snapshot at ${time}`} />
                ) : (
                  <div className="flex aspect-[4/3] items-center justify-center rounded bg-slate-100 px-2 text-center text-xs dark:bg-slate-800">{never ? t`Never sent by the device` : t`No picture`}</div>
                )}
                <p className="flex justify-between font-mono text-xs">
                  <span>{at(c.takenAt)}</span>
                  <span>{c.similarity === null ? "–" : c.similarity.toFixed(2)}</span>
                </p>
                {c.similarity !== null && threshold !== null && (
                  <div className="h-1.5 rounded bg-slate-200 dark:bg-slate-700" role="img" aria-label={t`similarity ${similarity}`}>
                    <div className={`h-1.5 rounded ${passed ? "bg-green-600" : "bg-red-600"}`} style={{ width: `${Math.round(c.similarity * 100)}%` }} />
                  </div>
                )}
                <p className={passed ? "text-green-800 dark:text-green-300" : "text-red-700 dark:text-red-300"}>{label(FACE_VERDICT_OPTIONS, c.verdict)}</p>
                {device && <p className="text-xs text-slate-500">{t`device: ${device}`}</p>}
              </li>
            );
          })}
        </ol>
      )}
      {(attempt.flag === "flagged" || attempt.flag === "stopped") && (
        <Auth node={actionNode("exam/faceReview", "review")}>
          <Button variant="primary" disabled={review.isPending} onClick={() => review.mutate()}>
            <Trans>Mark as reviewed</Trans>
          </Button>
        </Auth>
      )}
    </div>
  );
}
