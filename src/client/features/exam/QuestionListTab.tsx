import { Trans, useLingui } from "@lingui/react/macro";
import { Star, Trash2 } from "lucide-react";
import { formatTime } from "../../../shared/time.ts";
import { useFavourites, useQuestionsById, useWrongBook } from "../../offline/hooks.ts";
import { useOfflineDb } from "../../offline/index.ts";
import { removeWrong, setFavourite } from "../../offline/repository.ts";
import { Spinner } from "../../ui/Spinner.tsx";

/**
 * The favourite questions and the wrong-question book, from the device (so they work offline);
 * changes go through the outbox like every other.
 */
export function QuestionListTab({ kind }: { kind: "favourites" | "wrong" }) {
  const { t } = useLingui();
  const db = useOfflineDb() ?? undefined;
  const favourites = useFavourites(db);
  const wrong = useWrongBook(db);
  const ids = kind === "favourites" ? favourites?.map((f) => f.questionId) : wrong?.map((w) => w.questionId);
  const questions = useQuestionsById(db, ids);

  if (!db) return <p className="py-8 text-center">{t`Please log in to practise.`}</p>;
  if (!ids || !questions) return <Spinner className="mx-auto my-12 size-8" />;
  if (ids.length === 0) {
    return (
      <p className="py-12 text-center text-slate-600 dark:text-slate-300">
        {kind === "favourites" ? t`No favourite questions yet: tap the star while practising.` : t`No wrong questions: well done.`}
      </p>
    );
  }
  return (
    <ul className="space-y-3">
      {ids.map((id) => {
        const q = questions.get(id);
        const entry = wrong?.find((w) => w.questionId === id);
        const count = entry?.count ?? 0;
        const last = entry ? formatTime(entry.lastTime, "YYYY-MM-DD HH:mm") : "";
        return (
          <li key={id} className="flex items-start gap-3 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900">
            <div className="min-w-0 flex-1">
              <p className="whitespace-pre-wrap">{q ? q.stem : t`Question ${id} (its bank is not on this device)`}</p>
              {kind === "wrong" && <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t`Wrong ${count} times, last on ${last}`}</p>}
            </div>
            {kind === "favourites" ? (
              <button
                type="button"
                onClick={() => void setFavourite(db, id, false)}
                className="inline-flex min-h-11 shrink-0 items-center gap-1 rounded-md px-3 text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
              >
                <Star aria-hidden className="size-4 fill-amber-400 text-amber-500" />
                <Trans>Remove from favourites</Trans>
              </button>
            ) : (
              <button
                type="button"
                onClick={() => void removeWrong(db, id)}
                className="inline-flex min-h-11 shrink-0 items-center gap-1 rounded-md px-3 text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
              >
                <Trash2 aria-hidden className="size-4" />
                <Trans>Remove from the book</Trans>
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export function FavouritesTab() {
  return <QuestionListTab kind="favourites" />;
}
export function WrongBookTab() {
  return <QuestionListTab kind="wrong" />;
}
