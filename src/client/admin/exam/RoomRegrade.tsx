import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { RegradeCandidates, RegradeChange, RegradeOutcome } from "../../../shared/admin/regrade.ts";
import { request, serverRefusal } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { crudKeys, crudUrl } from "../crud/api.ts";
import type { CrudRow } from "../crud/types.ts";
import { FormAlert } from "../../ui/FormFooter.tsx";
import { PageSpinner } from "../../ui/PageSpinner.tsx";
import { DataTable, FIGURES } from "../../ui/DataTable.tsx";

/** The preview's counts. */
function Summary({ attempts, scoreChanged, nowPassed, nowFailed }: RegradeOutcome["summary"]) {
  const { t } = useLingui();
  return <p data-testid="regrade-summary">{t`Attempts changed: ${attempts}; scores changed: ${scoreChanged}; now passed: ${nowPassed}; now failed: ${nowFailed}`}</p>;
}

/**
 * A room's regrade (row action "Regrade"; server: modules/exam/attempts/regrade.ts): the
 * questions whose current version differs from what finished attempts sat, with what changed;
 * staff tick those whose current version should count, preview each attempt's old and new score
 * and result (nothing saved), then apply after a confirm. Attempts keep the points they were given.
 */
export function RoomRegrade({ row, onDone }: { row: CrudRow; onDone: () => void }) {
  const { t } = useLingui();
  const client = useQueryClient();
  const roomId = Number(row.id);
  const [chosen, setChosen] = useState<number[]>([]);
  const [preview, setPreview] = useState<RegradeOutcome | null>(null);
  const [asking, setAsking] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const candidates = useQuery({
    queryKey: ["crud", "exam/room", "regradeCandidates", roomId],
    queryFn: async ({ signal }) => (await request<RegradeCandidates>({ url: crudUrl("exam/room", "regradeCandidates"), method: "get", params: { id: roomId }, signal })).data,
  });
  const previewRun = useMutation({
    mutationFn: async (ids: number[]) =>
      (await request<RegradeOutcome>({ url: crudUrl("exam/room", "regradePreview"), method: "get", params: { id: roomId, questionIds: ids.join(",") } }, { showCodeMessage: false })).data,
    onSuccess: (data) => {
      setRefusal(null);
      setPreview(data);
    },
    onError: (e) => setRefusal(serverRefusal(e)?.msg ?? null),
  });
  const apply = useMutation({
    mutationFn: (ids: number[]) => request({ url: crudUrl("exam/room", "regrade"), method: "post", data: { id: roomId, questionIds: ids } }, { showCodeMessage: false, showSuccessMessage: true }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: crudKeys.all("exam/room") });
      onDone();
    },
    onError: (e) => setRefusal(serverRefusal(e)?.msg ?? null),
    onSettled: () => setAsking(false),
  });

  if (candidates.isPending) return <PageSpinner />;
  if (!candidates.data) return <p role="alert">{t`The questions to regrade could not be loaded`}</p>;
  const data = candidates.data;
  const changeText: Record<RegradeChange, string> = {
    type: t`type`,
    stem: t`text`,
    options: t`options`,
    answer: t`answer key`,
    analysis: t`analysis`,
  };
  const toggle = (id: number) => {
    setPreview(null);
    setChosen((list) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]));
  };
  const result = (passed: boolean) => (passed ? t`Passed` : t`Failed`);
  const s = preview?.summary;
  const openAttempts = data.openAttempts;
  const toRegrade = preview?.summary.attempts ?? 0;

  return (
    <div className="space-y-4 text-sm">
      <p className="text-slate-600 dark:text-slate-300">
        <Trans>
          Finished attempts keep the questions as they sat them. Tick the questions whose current version should count instead; each attempt keeps the points it was
          given for them.
        </Trans>
      </p>
      {data.openAttempts > 0 && <p className="text-amber-800 dark:text-amber-200">{t`Attempts still in progress are not regraded: ${openAttempts}`}</p>}
      {data.candidates.length === 0 ? (
        <p data-testid="regrade-none">{t`Every finished attempt counts the current version of its questions: nothing to regrade.`}</p>
      ) : (
        <fieldset className="space-y-2">
          <legend className="font-semibold">{t`Questions changed since members sat them`}</legend>
          {data.candidates.map((c) => {
            const changed = c.changes.map((x) => changeText[x]).join(", ");
            const { attempts, points } = c;
            const { min, max } = points;
            return (
              <label key={c.questionId} className="flex items-start gap-2 rounded-md border border-slate-200 p-2 dark:border-slate-700">
                <input type="checkbox" className="mt-1 size-4" checked={chosen.includes(c.questionId)} onChange={() => toggle(c.questionId)} />
                <span className="space-y-1">
                  <span className="block font-medium">
                    #{c.questionId} {c.stem}
                  </span>
                  <span className="block text-xs text-slate-600 dark:text-slate-300">
                    {t`Changed: ${changed}`} · {t`Attempts: ${attempts}`} · {min === max ? t`Points in the paper: ${min}` : t`Points in the paper: ${min}–${max}`}
                  </span>
                </span>
              </label>
            );
          })}
        </fieldset>
      )}
      <FormAlert text={refusal} />
      {preview && s && (
        <section aria-labelledby="regrade-preview-title" className="space-y-2">
          <h3 id="regrade-preview-title" className="font-semibold">
            {t`Preview: nothing is saved yet`}
          </h3>
          <Summary {...s} />
          <div className="max-h-80 overflow-auto" tabIndex={0} role="region" aria-labelledby="regrade-preview-title">
            <DataTable
              frame={false}
              className="min-w-[32rem]"
              data-testid="regrade-preview"
              data={preview.attempts}
              rowKey={(a) => a.attemptId}
              rowProps={(a) => ({ className: a.oldPassed !== a.newPassed ? "font-semibold" : undefined })}
              columns={[
                { id: "member", header: t`Member`, cell: (a) => a.nickname || a.username },
                { id: "old", header: t`Old score`, ...FIGURES, cell: (a) => a.oldScore },
                { id: "new", header: t`New score`, ...FIGURES, cell: (a) => a.newScore },
                { id: "result", header: t`Result`, cell: (a) => (a.oldPassed === a.newPassed ? result(a.newPassed) : `${result(a.oldPassed)} → ${result(a.newPassed)}`) },
              ]}
            />
          </div>
        </section>
      )}
      {data.candidates.length > 0 && (
        <div className="flex flex-wrap justify-end gap-2">
          <Button disabled={chosen.length === 0 || previewRun.isPending} onClick={() => previewRun.mutate(chosen)}>
            {previewRun.isPending && <Spinner className="size-4" />}
            <Trans>Preview</Trans>
          </Button>
          <Button variant="primary" disabled={!preview || preview.attempts.length === 0 || apply.isPending} onClick={() => setAsking(true)}>
            <Trans>Apply</Trans>
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={asking}
        onOpenChange={(open) => !open && setAsking(false)}
        title={t`Regrade ${toRegrade} attempts?`}
        description={t`Their scores and results change as previewed, and each member's record says it was regraded. This cannot be undone.`}
        confirmLabel={t`Apply`}
        busy={apply.isPending}
        onConfirm={() => apply.mutate(chosen)}
      />
    </div>
  );
}
