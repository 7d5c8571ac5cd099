import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Button } from "../../ui/Button.tsx";
import { formatTime } from "../../../shared/time.ts";
import type { FileUse } from "../../../shared/upload.ts";
import { formatBytes } from "../../ui/format.ts";
import { previewImages } from "../../ui/previewer/previewImages.tsx";
import { suffixIconUrl } from "../crud/fields/upload.ts";
import type { CrudRow } from "../crud/types.ts";

/** Cells of the attachments screen (routine/attachments.tsx). */

const isImage = (row: CrudRow) => typeof row.mimetype === "string" && row.mimetype.startsWith("image/") && row.mimetype !== "image/svg+xml";

/** An image's thumbnail (opens the previewer) or the file type's icon. */
export function PreviewCell({ row }: { row: CrudRow }) {
  const { t } = useLingui();
  const url = String(row.url ?? "");
  const name = String(row.name ?? "");
  if (isImage(row)) {
    return (
      <Button variant="bare" onClick={() => previewImages([url])} aria-label={t`Preview ${name}`} className="block size-12 overflow-hidden rounded border border-slate-200 dark:border-slate-700">
        <img src={url} alt="" loading="lazy" className="size-full object-cover" />
      </Button>
    );
  }
  return (
    <a href={url} target="_blank" rel="noopener noreferrer" aria-label={t`Open ${name}`} className="block size-12 outline-none focus-visible:ring-2 focus-visible:ring-primary">
      <img src={suffixIconUrl(name || url)} alt="" loading="lazy" className="size-12" />
    </a>
  );
}

/**
 * A long text on one line, cut to a width with its whole value as the tooltip: long file names
 * and types would otherwise widen the table until the actions column leaves the screen.
 */
function Truncated({ value, width }: { value: unknown; width: string }) {
  const text = String(value ?? "");
  return (
    <span className={`block truncate ${width}`} title={text}>
      {text}
    </span>
  );
}

/** The original file name (as it was uploaded, e.g. "pattern.webm"). */
export function NameCell({ row }: { row: CrudRow }) {
  return <Truncated value={row.name} width="max-w-48" />;
}

/** The file's MIME type ("application/vnd.openxmlformats-officedocument..." is cut). */
export function MimeCell({ row }: { row: CrudRow }) {
  return <Truncated value={row.mimetype} width="max-w-32" />;
}

/** When the file was last uploaded: the date over the time, a narrower column than one line. */
export function UploadedCell({ row }: { row: CrudRow }) {
  const time = row.last_upload_time as number | string | null;
  return (
    <span className="block whitespace-nowrap tabular-nums">
      {formatTime(time, "YYYY-MM-DD")}
      <span className="block text-slate-600 dark:text-slate-300">{formatTime(time, "HH:mm:ss")}</span>
    </span>
  );
}

export function SizeCell({ row }: { row: CrudRow }) {
  return <span className="whitespace-nowrap tabular-nums">{formatBytes(Number(row.size)) || "0 B"}</span>;
}

/** An uploader's kind as a coloured tag, then their user name. */
function Uploader({ kind, colours, name }: { kind: ReactNode; colours: string; name: unknown }) {
  return (
    <span className="whitespace-nowrap">
      <span className={`mr-1 inline-block rounded px-1.5 py-0.5 text-xs ${colours}`}>{kind}</span>
      {String(name ?? "")}
    </span>
  );
}

/** Who uploaded the file: an admin or a member (or an account since deleted). */
export function UploaderCell({ row }: { row: CrudRow }) {
  if (row.admin_id != null)
    return <Uploader kind={<Trans>Administrator</Trans>} colours="bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-200" name={row.admin_username} />;
  if (row.user_id != null)
    return <Uploader kind={<Trans>Member</Trans>} colours="bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200" name={row.user_username} />;
  return (
    <span className="text-slate-500 dark:text-slate-400">
      <Trans>Deleted account</Trans>
    </span>
  );
}

/** A file's uses as the list answers them (`recycled` missing from an older answer). */
type Uses = Omit<FileUse, "recycled"> & Partial<Pick<FileUse, "recycled">>;

/** Where the file is used (what keeps it on disk when its row is deleted). */
export function UsesCell({ row }: { row: CrudRow }) {
  const { t } = useLingui();
  const uses = (row.uses ?? null) as Uses | null;
  if (!uses) return null;
  const parts: string[] = [];
  const { attachment, admin, member, course, lesson, question, recycled } = uses;
  if (attachment) parts.push(t`${plural(attachment, { one: "# other row", other: "# other rows" })}`);
  if (admin) parts.push(t`${plural(admin, { one: "# admin avatar", other: "# admin avatars" })}`);
  if (member) parts.push(t`${plural(member, { one: "# member avatar", other: "# member avatars" })}`);
  if (course) parts.push(t`${plural(course, { one: "# course", other: "# courses" })}`);
  if (lesson) parts.push(t`${plural(lesson, { one: "# lesson", other: "# lessons" })}`);
  if (question) parts.push(t`${plural(question, { one: "# question", other: "# questions" })}`);
  if (recycled) parts.push(t`${plural(recycled, { one: "# recycle bin record", other: "# recycle bin records" })}`);
  return parts.length === 0 ? <span className="whitespace-nowrap text-slate-500 dark:text-slate-400">{t`Not used`}</span> : <span className="block max-w-48 min-w-32">{parts.join(", ")}</span>;
}
