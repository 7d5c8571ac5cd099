import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { request } from "../../api/index.ts";
import { Auth } from "../../routing/auth.tsx";
import { Button } from "../../ui/Button.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { crudKeys, crudUrl } from "../crud/api.ts";
import { RemoteSelect } from "../crud/RemoteSelect.tsx";
import type { CrudRow } from "../crud/types.ts";

interface Member {
  id: number;
  username: string;
  nickname: string;
}

/**
 * A classroom's members (row action "Classroom members"): the list (`GET members`), a member
 * picked by search and added (`POST addMembers`), each removed (`POST removeMembers`); the
 * server keeps a company admin to their company's members.
 */
export function ClassroomMembers({ row }: { row: CrudRow; onDone: () => void }) {
  const { t } = useLingui();
  const client = useQueryClient();
  const pickerId = useId();
  const [picked, setPicked] = useState<unknown>(null);
  const key = ["crud", "org/classroom", "members", row.id];
  const members = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => (await request<{ list: Member[] }>({ url: crudUrl("org/classroom", "members"), method: "get", params: { id: row.id }, signal })).data,
  });
  const change = useMutation({
    mutationFn: ({ action, ids }: { action: "addMembers" | "removeMembers"; ids: number[] }) =>
      request({ url: crudUrl("org/classroom", action), method: "post", data: { id: row.id, user_ids: ids } }, { showSuccessMessage: true }),
    onSuccess: async () => {
      setPicked(null);
      await Promise.all([client.invalidateQueries({ queryKey: key }), client.invalidateQueries({ queryKey: crudKeys.all("org/classroom") })]);
    },
  });
  const pickedId = typeof picked === "number" ? picked : Number(picked);
  return (
    <div className="space-y-4 text-sm">
      <Auth node="addMembers">
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-56 flex-1 space-y-1">
            <label htmlFor={pickerId} className="font-medium">
              <Trans>Add a member</Trans>
            </label>
            <RemoteSelect control={{ id: pickerId }} remote={{ path: "user/user", labelField: "username" }} value={picked} onChange={setPicked} placeholder={t`Type to search`} />
          </div>
          <Button variant="primary" disabled={!(pickedId > 0) || change.isPending} onClick={() => change.mutate({ action: "addMembers", ids: [pickedId] })}>
            <Trans>Add</Trans>
          </Button>
        </div>
      </Auth>
      {members.isPending && <Spinner className="mx-auto my-4 size-6" />}
      {members.isError && <p role="alert">{t`The members could not be loaded`}</p>}
      {members.data && members.data.list.length === 0 && <p className="text-slate-600 dark:text-slate-300">{t`No members in this classroom yet`}</p>}
      {members.data && members.data.list.length > 0 && (
        <ul className="divide-y divide-slate-100 rounded-md border border-slate-200 dark:divide-slate-800 dark:border-slate-700" aria-label={t`Classroom members`}>
          {members.data.list.map((m) => (
            <li key={m.id} className="flex min-h-11 items-center justify-between gap-2 px-3">
              <span>
                {m.nickname || m.username} <span className="text-slate-500 dark:text-slate-400">({m.username})</span>
              </span>
              <Auth node="removeMembers">
                <Button disabled={change.isPending} onClick={() => change.mutate({ action: "removeMembers", ids: [m.id] })}>
                  <Trans>Remove</Trans>
                </Button>
              </Auth>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
