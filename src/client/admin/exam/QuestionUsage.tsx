import { plural } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { request } from "../../api/index.ts";
import { crudUrl } from "../crud/api.ts";

/** One question's use (`GET /admin/exam/question/usage?ids=`): fixed rows' papers and attempts that sat it. */
export interface QuestionUsage {
  id: number;
  papers: number;
  attempts: number;
}

/**
 * The questions screen's delete confirm: which of the questions are in use, and so will be hidden
 * (restorable) rather than deleted — "Used in 2 papers and 41 attempts: it will be hidden, not deleted".
 */
export function QuestionUsageNotice({ ids }: { ids: number[] }) {
  const { t } = useLingui();
  const usage = useQuery({
    queryKey: ["exam/question", "usage", ids],
    queryFn: async ({ signal }) => (await request<{ list: QuestionUsage[] }>({ url: crudUrl("exam/question", "usage"), method: "get", params: { ids: ids.join(",") }, signal }, { showCodeMessage: false })).data.list,
    staleTime: 0,
    gcTime: 0,
  });
  if (usage.isPending) return <span className="text-sm">{t`Checking where these questions are used…`}</span>;
  if (usage.isError) return <span className="text-sm">{t`Where these questions are used could not be checked: questions in use will be hidden, not deleted.`}</span>;
  const used = usage.data.filter((u) => u.papers > 0 || u.attempts > 0);
  if (used.length === 0) return null;
  const papers = used.reduce((n, u) => n + u.papers, 0);
  const attempts = used.reduce((n, u) => n + u.attempts, 0);
  const inPapers = plural(papers, { one: "# paper", other: "# papers" });
  const inAttempts = plural(attempts, { one: "# attempt", other: "# attempts" });
  return (
    <span role="note" className="font-medium text-amber-800 dark:text-amber-300">
      {ids.length === 1
        ? t`Used in ${inPapers} and ${inAttempts}: it will be hidden, not deleted.`
        : t`${plural(used.length, { one: "# of these questions is in use", other: "# of these questions are in use" })} (in ${inPapers} and ${inAttempts}): they will be hidden, not deleted; the others are deleted.`}
    </span>
  );
}
