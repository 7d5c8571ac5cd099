import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CalendarCheck, Megaphone } from "lucide-react";
import type { HomeBlock } from "../../../shared/admin/modules.ts";
import { formatTime } from "../../../shared/time.ts";
import { request } from "../../api/index.ts";
import { useUserInfo } from "../../stores/userInfo.ts";
import { Button } from "../../ui/Button.tsx";

const card = "rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900";

/**
 * What the enabled modules show a member on the member center's overview (`GET /api/module/home`):
 * a list block (the notice board's published notices) and a daily check-in button. Nothing when no
 * module shows anything; a failed load shows nothing either (the overview's own content matters more).
 */
export function ModuleBlocks() {
  const query = useQuery({
    queryKey: ["module", "home"],
    queryFn: async ({ signal }) => (await request<{ blocks: HomeBlock[] }>({ url: "/api/module/home", method: "get", signal }, { showErrorMessage: false })).data.blocks,
  });
  const blocks = query.data ?? [];
  if (blocks.length === 0) return null;
  return (
    <div className="grid gap-6 md:grid-cols-2">
      {blocks.map((block) => (block.kind === "list" ? <ListBlock key={`${block.module}/${block.name}`} block={block} /> : <CheckInBlock key={`${block.module}/${block.name}`} block={block} />))}
    </div>
  );
}

function ListBlock({ block }: { block: Extract<HomeBlock, { kind: "list" }> }) {
  const id = `module-${block.module}-${block.name}`;
  return (
    <section aria-labelledby={id} data-module-block={block.module} className={`${card} md:col-span-2`}>
      <h2 id={id} className="mb-3 flex items-center gap-2 text-lg font-semibold">
        <Megaphone aria-hidden className="size-5 text-primary dark:text-blue-400" />
        {block.title}
      </h2>
      {block.items.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">
          <Trans>Nothing here yet.</Trans>
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {block.items.map((item) => (
            <li key={item.id} className="py-3 first:pt-0 last:pb-0">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h3 className="font-medium break-words">{item.title}</h3>
                {item.time !== null && <time className="text-xs text-slate-500 tabular-nums dark:text-slate-400">{formatTime(item.time)}</time>}
              </div>
              {item.body && <p className="mt-1 text-sm whitespace-pre-line text-slate-600 dark:text-slate-300">{item.body}</p>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function CheckInBlock({ block }: { block: Extract<HomeBlock, { kind: "dailyPoints" }> }) {
  const { t } = useLingui();
  const client = useQueryClient();
  const id = `module-${block.module}-${block.name}`;
  const points = block.points;
  const checkIn = useMutation({
    mutationFn: async () =>
      (await request<{ awarded: number; score?: number }>({ url: "/api/module/checkIn", method: "post", data: { module: block.module, block: block.name } }, { showSuccessMessage: true })).data,
    onSuccess: async (data) => {
      if (typeof data.score === "number") useUserInfo.setState({ score: data.score });
      await client.invalidateQueries({ queryKey: ["module", "home"] });
      await client.invalidateQueries({ queryKey: ["account"] });
    },
  });
  const done = block.checkedIn || checkIn.isSuccess;
  return (
    <section aria-labelledby={id} data-module-block={block.module} className={card}>
      <h2 id={id} className="mb-3 flex items-center gap-2 text-lg font-semibold">
        <CalendarCheck aria-hidden className="size-5 text-primary dark:text-blue-400" />
        {block.title}
      </h2>
      <p className="mb-4 text-sm text-slate-600 dark:text-slate-300">
        <Trans>Check in once a day for {points} points.</Trans>
      </p>
      <Button
        variant="primary"
        disabled={done || checkIn.isPending}
        onClick={() => checkIn.mutate()}
      >
        {done ? t`Checked in today` : t`Check in`}
      </Button>
    </section>
  );
}
