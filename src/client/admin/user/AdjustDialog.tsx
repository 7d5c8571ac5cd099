import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { moneyAdjust, scoreAdjust } from "../../../shared/admin/members.ts";
import { request, serverRefusal } from "../../api/index.ts";
import { controlClass, FieldFrame } from "../../ui/form/Field.tsx";
import { sentSchemaResolver } from "../../ui/form/sentSchemaResolver.ts";
import { crudKeys, crudUrl, fieldErrorsOf } from "../crud/api.ts";
import type { CrudRow } from "../crud/types.ts";
import { formatCents } from "./cells.tsx";
import { FormFooter, FormAlert } from "../../ui/FormFooter.tsx";
import { useDirtyForm, useGuardedClose } from "../../ui/discardGuard.tsx";
import { submitWith } from "../../ui/form/submit.ts";
import { Fact } from "../../ui/Fact.tsx";

/** "12.3" / "-5" / "0.05" -> cents; null for anything else (at most 2 decimals). */
export function yuanToCents(text: string): number | null {
  const match = /^([+-]?)(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "").padEnd(2, "0"));
  return match[1] === "-" ? -cents : cents;
}

/** The change typed in: cents of an amount in yuan, or whole points; null when it is neither. */
function changeOf(text: string, money: boolean): number | null {
  if (money) return yuanToCents(text);
  return /^[+-]?\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : null;
}

/** The change is typed in the field named as the column it changes (`money` in yuan, `score`). */
type AdjustValues = { money: string; score: string; memo: string };

/**
 * Adjusts a member's balance (`money`, entered in yuan, sent in cents) or points (`score`) with
 * a memo: `POST /admin/user/<moneyLog|scoreLog>/add`. Shows the figure now and after; the
 * server refuses a result below zero (shown here) and writes the one log row.
 */
function Adjust({ row, onDone, column }: { row: CrudRow; onDone: () => void; column: "money" | "score" }) {
  const { t } = useLingui();
  const client = useQueryClient();
  const money = column === "money";
  const path = money ? "user/moneyLog" : "user/scoreLog";
  const schema = money ? moneyAdjust : scoreAdjust;
  /** The body as the server takes it; the shared schema checks it so. */
  const sent = (values: AdjustValues) => ({ user_id: row.id, [column]: changeOf(values[column], money), memo: values.memo.trim() });
  const form = useForm<AdjustValues>({ defaultValues: { money: "", score: "", memo: "" }, resolver: sentSchemaResolver(schema, sent) });
  const amount = useWatch({ control: form.control, name: column });
  const error = form.formState.errors[column]?.message ?? null;
  const [formError, setFormError] = useState<string | null>(null);
  useDirtyForm(form.formState.isDirty);
  const cancel = useGuardedClose(onDone);
  const current = Number(row[column] ?? 0);
  const change = changeOf(amount, money);
  const valid = change !== null && (money ? moneyAdjust.shape.money : scoreAdjust.shape.score).safeParse(change).success;
  const show = (n: number) => (money ? formatCents(n) : String(n));
  const save = useMutation({
    mutationFn: (values: AdjustValues) => request({ url: crudUrl(path, "add"), method: "post", data: sent(values) }, { showCodeMessage: false, showSuccessMessage: true }),
    onSuccess: async () => {
      await Promise.all([client.invalidateQueries({ queryKey: crudKeys.all("user/user") }), client.invalidateQueries({ queryKey: crudKeys.all(path) })]);
      onDone();
    },
    onError: (e) => {
      const refusal = serverRefusal(e);
      if (!refusal) return;
      const fields = fieldErrorsOf(refusal.data);
      if (fields?.[column]) form.setError(column, { type: "server", message: fields[column] });
      else setFormError(refusal.msg);
    },
  });
  const name = String(row.nickname || row.username || row.id);
  return (
    <form noValidate className="space-y-4" onSubmit={submitWith(form.handleSubmit, (values) => save.mutate(values), () => setFormError(null))}>
      <dl className="grid grid-cols-2 gap-2 rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800">
        <Fact tone="soft" label={<Trans>Member</Trans>} className="text-end font-medium">
          {name}
        </Fact>
        <Fact tone="soft" label={money ? <Trans>Balance now</Trans> : <Trans>Points now</Trans>} className="text-end tabular-nums" testId="adjust-current">
          {show(current)}
        </Fact>
        <Fact tone="soft" label={<Trans>After the change</Trans>} className={`text-end tabular-nums ${valid && current + change! < 0 ? "text-red-700 dark:text-red-400" : ""}`}>
          {valid ? show(current + change!) : "–"}
        </Fact>
      </dl>
      <FieldFrame label={money ? t`Amount (yuan, negative to take away)` : t`Points (negative to take away)`} error={error}>
        {(control) => (
          <input {...control} {...form.register(column)} inputMode={money ? "decimal" : "numeric"} autoComplete="off" placeholder={money ? "10.00 / -5.50" : "100 / -20"} className={controlClass(error)} />
        )}
      </FieldFrame>
      <FieldFrame label={t`Memo`} hint={t`Shown to the member in their log`} error={form.formState.errors.memo?.message}>
        {(control) => <input {...control} {...form.register("memo")} maxLength={200} className={controlClass(form.formState.errors.memo)} />}
      </FieldFrame>
      <FormAlert text={formError} />
      <FormFooter className="pt-2" busy={save.isPending} onCancel={cancel} />
    </form>
  );
}

export function AdjustMoney(props: { row: CrudRow; onDone: () => void }) {
  return <Adjust {...props} column="money" />;
}

export function AdjustScore(props: { row: CrudRow; onDone: () => void }) {
  return <Adjust {...props} column="score" />;
}
