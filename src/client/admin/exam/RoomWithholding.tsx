import { plural } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import type { RoomWithholding } from "../../../shared/admin/rooms.ts";
import { formatTime } from "../../../shared/time.ts";
import { request } from "../../api/index.ts";
import { crudUrl } from "../crud/api.ts";
import type { CrudRow, CustomFieldProps } from "../crud/types.ts";
import { localInputToSeconds } from "../crud/values.ts";

/**
 * What a room keeps from practice (server: crud/resources/roomFairness.ts): on the
 * room list each row says how many practice questions it keeps out until when and whether its
 * paper still adds up to its total; the room form says the same for the paper and end time being
 * entered and, before a save would make mock papers unusable ("kept for an official exam"), names
 * them and asks for a tick (the server refuses the save without it).
 */

const num = (v: unknown): number => (typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : Number.NaN);

/** A room list row's notes: practice questions kept until when, a paper that no longer adds up, overrides. */
export function RoomNotes({ row }: { row: CrudRow }) {
  const { t } = useLingui();
  const kept = num(row.withheld_questions);
  const closesAt = num(row.closes_at);
  const total = num(row.paper_total);
  const rowsTotal = num(row.paper_rows_total);
  const overrides = num(row.overrides);
  const until = formatTime(closesAt);
  const notes: { key: string; text: string; warn?: boolean }[] = [];
  if (Number.isFinite(total) && Number.isFinite(rowsTotal) && Math.round(total * 100) !== Math.round(rowsTotal * 100)) {
    notes.push({ key: "total", warn: true, text: t`The paper no longer adds up: its questions give ${rowsTotal} of ${total} points, so members cannot start` });
  }
  if (kept > 0) notes.push({ key: "kept", text: t`Keeps ${plural(kept, { one: "# question", other: "# questions" })} out of practice until ${until}` });
  if (overrides > 0) notes.push({ key: "overrides", text: t`${plural(overrides, { one: "# override", other: "# overrides" })}` });
  if (notes.length === 0) return <>–</>;
  return (
    <ul className="space-y-0.5 text-xs" data-testid="room-notes">
      {notes.map((n) => (
        <li key={n.key} className={n.warn ? "font-medium text-red-700 dark:text-red-400" : "text-slate-600 dark:text-slate-300"}>
          {n.text}
        </li>
      ))}
    </ul>
  );
}

/**
 * The room form's note on practice and mock papers, and the tick confirming that the room keeps
 * the named mock papers for the exam (`confirm_withhold`, sent with the save, not stored).
 */
export function RoomWithholdingField({ value, onChange, values, control }: CustomFieldProps) {
  const { t } = useLingui();
  const paperId = num(values.paper_id);
  const endTime = typeof values.end_time === "string" ? localInputToSeconds(values.end_time) : null;
  const ready = Number.isInteger(paperId) && paperId > 0 && endTime !== null;
  const query = useQuery({
    queryKey: ["crud", "exam/room", "withholding", paperId, endTime],
    enabled: ready,
    queryFn: async ({ signal }) =>
      (await request<RoomWithholding>({ url: crudUrl("exam/room", "withholding"), method: "get", params: { paper_id: paperId, end_time: endTime }, signal }, { showCodeMessage: false })).data,
  });
  const data = ready ? query.data : undefined;
  const papers = data?.papers ?? [];
  const refused = control["aria-invalid"] === true;
  const until = data ? formatTime(data.closesAt) : "";
  const kept = data?.questions ?? 0;
  const names = papers.map((p) => `“${p.title}”`).join(", ");
  return (
    <div className="space-y-2 text-sm" data-testid="room-withholding">
      {!data ? (
        <p className="text-slate-600 dark:text-slate-300">{t`Choose the paper and when the room closes to see what it keeps from practice.`}</p>
      ) : (
        <p className="text-slate-600 dark:text-slate-300">
          {kept > 0 ? t`Until ${until} this room keeps ${plural(kept, { one: "# question", other: "# questions" })} of practice banks out of practice.` : t`This room keeps no practice questions out of practice.`}
        </p>
      )}
      {papers.length > 0 && (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          {t`Saving this room keeps these mock papers for the official exam until ${until}: ${names}. Members cannot take them as mock papers until then.`}
        </p>
      )}
      {(papers.length > 0 || refused) && (
        <label className="inline-flex min-h-11 items-center gap-2">
          <input
            id={control.id}
            aria-describedby={control["aria-describedby"]}
            aria-invalid={control["aria-invalid"]}
            type="checkbox"
            className="size-4 accent-primary"
            checked={value === true}
            onChange={(e) => onChange(e.target.checked)}
          />
          {t`Keep them for this exam and save`}
        </label>
      )}
    </div>
  );
}
