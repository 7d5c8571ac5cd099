import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { MAX_EXTRA_ATTEMPTS, MAX_EXTRA_MINUTES, roomOverrideAdd, type RoomOverride } from "../../../shared/admin/rooms.ts";
import { request, serverRefusal } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";
import { controlClass } from "../../ui/form/Field.tsx";
import { sentSchemaResolver } from "../../ui/form/sentSchemaResolver.ts";
import { crudKeys, crudUrl } from "../crud/api.ts";
import { RemoteSelect } from "../crud/RemoteSelect.tsx";
import type { CrudRow } from "../crud/types.ts";
import { FormFooter, FormAlert } from "../../ui/FormFooter.tsx";
import { useDirtyForm } from "../../ui/discardGuard.tsx";
import { PageSpinner } from "../../ui/PageSpinner.tsx";
import { DataTable, FIGURES } from "../../ui/DataTable.tsx";

/**
 * A room's overrides (row action "Overrides"; server: crud/resources/roomFairness.ts), Moodle's
 * user and group overrides: extra minutes per attempt and/or extra attempts for a named member or
 * a member group. Listed, added and removed here; a member matched by several gets the most
 * generous of each. Extra time moves the room's end for that member by the same amount.
 */
type OverrideValues = { target: "member" | "group"; memberId: unknown; groupId: unknown; minutes: string; attempts: string };
const EMPTY: OverrideValues = { target: "member", memberId: null, groupId: null, minutes: "0", attempts: "0" };

export function RoomOverrides({ row }: { row: CrudRow; onDone: () => void }) {
  const { t } = useLingui();
  const client = useQueryClient();
  const roomId = Number(row.id);
  const formId = useId();
  /** The body as the server takes it; the shared schema checks it so (an empty number is 0). */
  const sent = (values: OverrideValues) => ({
    id: roomId,
    user_id: values.target === "member" ? values.memberId : null,
    user_group_id: values.target === "group" ? values.groupId : null,
    extra_minutes: values.minutes.trim() === "" ? 0 : Number(values.minutes),
    extra_attempts: values.attempts.trim() === "" ? 0 : Number(values.attempts),
  });
  const form = useForm<OverrideValues>({ defaultValues: EMPTY, resolver: sentSchemaResolver(roomOverrideAdd, sent) });
  const target = useWatch({ control: form.control, name: "target" });
  const [refusal, setRefusal] = useState<string | null>(null);
  useDirtyForm(form.formState.isDirty);
  // The form has one alert for every refusal, as the server words it, its own checks included.
  const checkError = Object.values(form.formState.errors)[0]?.message ?? null;
  const key = ["crud", "exam/room", "overrides", roomId];
  const list = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => (await request<{ overrides: RoomOverride[] }>({ url: crudUrl("exam/room", "overrides"), method: "get", params: { id: roomId }, signal })).data,
  });
  const changed = async () => {
    setRefusal(null);
    await client.invalidateQueries({ queryKey: key });
    await client.invalidateQueries({ queryKey: crudKeys.all("exam/room") });
  };
  const add = useMutation({
    mutationFn: (values: OverrideValues) =>
      request({ url: crudUrl("exam/room", "overrideAdd"), method: "post", data: sent(values) }, { showCodeMessage: false, showSuccessMessage: true }),
    onSuccess: async () => {
      form.reset({ ...EMPTY, target: form.getValues("target") });
      await changed();
    },
    onError: (e) => setRefusal(serverRefusal(e)?.msg ?? null),
  });
  const remove = useMutation({
    mutationFn: (overrideId: number) => request({ url: crudUrl("exam/room", "overrideDel"), method: "post", data: { id: roomId, override_id: overrideId } }, { showCodeMessage: false, showSuccessMessage: true }),
    onSuccess: changed,
    onError: (e) => setRefusal(serverRefusal(e)?.msg ?? null),
  });

  const removeLabel = (name: string) => t`Remove the override of ${name}`;

  if (list.isPending) return <PageSpinner />;
  if (!list.data) return <p role="alert">{t`The overrides could not be loaded`}</p>;
  const overrides = list.data.overrides;
  const who = (o: RoomOverride) => {
    const name = o.member ? o.member.nickname || o.member.username : (o.group?.name ?? "");
    const username = o.member?.username ?? "";
    return o.member ? t`Member ${name} (${username})` : t`Group ${name}`;
  };

  return (
    <div className="space-y-4 text-sm">
      <p className="text-slate-600 dark:text-slate-300">
        <Trans>
          Extra minutes lengthen each attempt and move the room's end by as much for that member; extra attempts add to the attempts allowed. A member matched by a member
          and a group override gets the more generous of each.
        </Trans>
      </p>
      {overrides.length === 0 ? (
        <p data-testid="overrides-none">{t`No overrides: every member has the room's time and attempts.`}</p>
      ) : (
        <DataTable
          frame={false}
          data-testid="overrides"
          data={overrides}
          rowKey={(o) => o.id}
          columns={[
            { id: "who", header: t`Who`, cell: who },
            { id: "minutes", header: t`Extra minutes`, ...FIGURES, cell: (o) => o.extraMinutes },
            { id: "attempts", header: t`Extra attempts`, ...FIGURES, cell: (o) => o.extraAttempts },
            {
              id: "actions",
              header: <span className="sr-only">{t`Actions`}</span>,
              className: "text-end",
              cell: (o) => (
                <Button disabled={remove.isPending} onClick={() => remove.mutate(o.id)} aria-label={removeLabel(who(o))}>
                  <Trans>Remove</Trans>
                </Button>
              ),
            },
          ]}
        />
      )}
      <form
        noValidate
        className="space-y-3 rounded-md border border-slate-200 p-3 dark:border-slate-700"
        aria-labelledby={`${formId}-title`}
        onSubmit={(e) => {
          setRefusal(null);
          void form.handleSubmit((values) => add.mutate(values))(e);
        }}
      >
        <h3 id={`${formId}-title`} className="font-semibold">
          {t`Add an override`}
        </h3>
        <div className="flex flex-wrap gap-4" role="radiogroup" aria-label={t`For`}>
          <label className="inline-flex min-h-11 items-center gap-2">
            <input type="radio" name={`${formId}-target`} checked={target === "member"} onChange={() => form.setValue("target", "member")} className="size-4 accent-primary" />
            {t`A member`}
          </label>
          <label className="inline-flex min-h-11 items-center gap-2">
            <input type="radio" name={`${formId}-target`} checked={target === "group"} onChange={() => form.setValue("target", "group")} className="size-4 accent-primary" />
            {t`A member group`}
          </label>
        </div>
        <div className="space-y-1">
          <label htmlFor={`${formId}-${target}`} className="block font-medium">
            {target === "member" ? t`Member` : t`Member group`}
          </label>
          <Controller
            // One picker a target: the other's search starts afresh.
            key={target}
            control={form.control}
            name={target === "member" ? "memberId" : "groupId"}
            render={({ field }) => (
              <RemoteSelect
                control={{ id: `${formId}-${target}` }}
                remote={target === "member" ? { path: "user/user", labelField: "username" } : { path: "user/group", labelField: "name" }}
                value={field.value}
                onChange={field.onChange}
                placeholder={t`Type to search`}
              />
            )}
          />
        </div>
        <div className="flex flex-wrap gap-4">
          <label className="space-y-1">
            <span className="block font-medium">{t`Extra minutes per attempt`}</span>
            <input type="number" inputMode="numeric" min={0} max={MAX_EXTRA_MINUTES} step={1} {...form.register("minutes")} className={controlClass(undefined)} />
          </label>
          <label className="space-y-1">
            <span className="block font-medium">{t`Extra attempts`}</span>
            <input type="number" inputMode="numeric" min={0} max={MAX_EXTRA_ATTEMPTS} step={1} {...form.register("attempts")} className={controlClass(undefined)} />
          </label>
        </div>
        <FormAlert text={checkError ?? refusal} />
        <FormFooter busy={add.isPending} submit={<Trans>Add</Trans>} />
      </form>
    </div>
  );
}
