import { plural } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { request } from "../../api/index.ts";
import type { QuestionVersion } from "../../../shared/admin/questions.ts";
import { formatTime } from "../../../shared/time.ts";
import { textParts } from "../../../shared/exam/questionText.ts";
import { Select } from "../../ui/Select.tsx";
import { crudUrl } from "../crud/api.ts";
import type { CustomFieldProps } from "../crud/types.ts";

/**
 * Question versions in the back office (server: modules/exam/versions.ts): the history
 * on a question's form, and the version a fixed paper row follows (its latest, or one it pins).
 */

const questionId = (value: unknown): number | null => {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
  return Number.isInteger(n) && n > 0 ? n : null;
};

function useVersions(id: number | null) {
  return useQuery({
    queryKey: ["exam/question", "versions", id],
    queryFn: async ({ signal }) =>
      (await request<{ list: QuestionVersion[] }>({ url: crudUrl("exam/question", "versions"), method: "get", params: { id }, signal }, { showCodeMessage: false })).data.list,
    enabled: id !== null,
    staleTime: 0,
  });
}

/** A stem as one line of text (images as 🖼). */
const stemText = (stem: string) => textParts(stem).map((p) => (p.kind === "text" ? p.text : "🖼")).join("");

/** The correct answer as text: a choice, choices, blanks (alternatives with " / "), or a short answer's keywords. */
function answerText(answer: unknown): string {
  if (typeof answer === "string") return answer;
  if (Array.isArray(answer)) return answer.map((a) => (Array.isArray(a) ? a.join(" / ") : String(a))).join(", ");
  if (answer && typeof answer === "object") {
    const a = answer as { keywords?: unknown; reference?: unknown };
    return [Array.isArray(a.keywords) ? a.keywords.join(", ") : "", typeof a.reference === "string" ? a.reference : ""].filter(Boolean).join(" — ");
  }
  return "";
}

/**
 * The question form's history (its value is the question's id; shown when editing): each version,
 * newest first, with when and by whom it was made and how many paper rows pin it; a version
 * opens to its text, options, answer and analysis.
 */
export function QuestionHistory({ value }: CustomFieldProps) {
  const { t } = useLingui();
  const id = questionId(value);
  const versions = useVersions(id);
  if (id === null) return null;
  if (versions.isPending) return <p className="text-sm text-slate-500">{t`Loading…`}</p>;
  if (versions.isError) return <p className="text-sm text-red-700 dark:text-red-400">{t`The versions of this question could not be loaded.`}</p>;
  const list = versions.data;
  return (
    <div className="space-y-2" data-testid="question-history">
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {t`Changing the text, options, answer or analysis makes a new version. Attempts keep the version they sat; papers use the latest unless a row pins one.`}
      </p>
      <ol className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
        {list.map((v) => {
          const who = v.admin ?? "–";
          const version = v.version;
          const when = formatTime(v.createTime);
          const pinned = v.pinnedRows > 0 ? plural(v.pinnedRows, { one: "pinned by # paper row", other: "pinned by # paper rows" }) : "";
          return (
            <li key={v.version}>
              <details className="group px-3 py-2">
                <summary className="flex cursor-pointer flex-wrap items-baseline gap-x-2 text-sm">
                  <span className="font-medium">{v.latest ? t`Version ${version} (latest)` : t`Version ${version}`}</span>
                  <span className="text-slate-500 tabular-nums dark:text-slate-400">{t`${when} by ${who}`}</span>
                  {pinned && <span className="text-amber-800 dark:text-amber-300">{pinned}</span>}
                  <span className="w-full truncate text-slate-600 dark:text-slate-300">{stemText(v.stem)}</span>
                </summary>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <dt className="text-slate-500">{t`Question`}</dt>
                  <dd className="whitespace-pre-wrap">{stemText(v.stem)}</dd>
                  {v.options.length > 0 && (
                    <>
                      <dt className="text-slate-500">{t`Options`}</dt>
                      <dd>
                        {v.options.map((o) => (
                          <div key={o.key}>
                            {o.key}. {stemText(o.text)}
                          </div>
                        ))}
                      </dd>
                    </>
                  )}
                  <dt className="text-slate-500">{t`Correct answer`}</dt>
                  <dd>{answerText(v.answer)}</dd>
                  {v.analysis !== "" && (
                    <>
                      <dt className="text-slate-500">{t`Analysis`}</dt>
                      <dd className="whitespace-pre-wrap">{v.analysis}</dd>
                    </>
                  )}
                </dl>
              </details>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** Where a fixed paper row's question is: "latest" (null) or the version it pins. */
export function PinnedVersionField({ value, onChange, values, control }: CustomFieldProps) {
  const { t } = useLingui();
  const id = questionId(values.question_id);
  const versions = useVersions(id);
  const list = versions.data ?? [];
  const latest = list.find((v) => v.latest)?.version;
  const pinned = questionId(value);
  return (
    <Select
      control={control}
      value={pinned === null ? "" : String(pinned)}
      onChange={(v) => onChange(v === "" ? null : Number(v))}
      busy={id !== null && versions.isPending}
      disabled={id === null}
      emptyLabel={latest === undefined ? t`Always the latest version` : t`Always the latest version (now ${latest})`}
      options={list.map(({ version, latest: isLatest, createTime, stem }) => ({
        value: String(version),
        label: `${isLatest ? t`Version ${version} (latest)` : t`Version ${version}`} · ${formatTime(createTime)} · ${stemText(stem).slice(0, 60)}`,
      }))}
    />
  );
}
