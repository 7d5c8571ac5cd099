import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";

/** Upload checks of SPEC §5, shared by the client (before sending) and the server. */

/**
 * What still uses an uploaded file, by where (the attachments list shows it): attachment rows,
 * avatars, courses, lessons, questions, and records of the recycle bin (a deleted row, such as a
 * lesson with its video, that may be restored).
 */
export interface FileUse {
  attachment: number;
  admin: number;
  member: number;
  course: number;
  lesson: number;
  question: number;
  recycled: number;
}

export interface UploadFileInfo {
  name?: string;
  size?: number;
  type?: string;
}

export interface UploadConfig {
  /** Largest accepted file, in bytes (see parseSize for the site config's "10mb"). */
  maxsize: number;
  /** Comma-separated extensions (with or without a leading dot), MIME types, `type/*` or `*`. */
  mimetype: string;
}

const SIZE_UNITS: Record<string, number> = {
  "": 0,
  b: 0,
  k: 1,
  kb: 1,
  m: 2,
  mb: 2,
  g: 3,
  gb: 3,
  t: 4,
  tb: 4,
};

/**
 * Bytes for a size written like the site config does: "10mb", "512kb", "2gb", "1024" (bytes),
 * or a number of bytes. Units are powers of 1024 and case-insensitive; fractions are truncated
 * ("1.5kb" is 1536). Anything else throws a RangeError.
 */
export function parseSize(size: string | number): number {
  if (typeof size === "number") {
    if (!Number.isFinite(size) || size < 0) throw new RangeError(`Invalid size: ${size}`);
    return Math.floor(size);
  }
  const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)\s*$/i.exec(size);
  const power = match ? SIZE_UNITS[(match[2] ?? "").toLowerCase()] : undefined;
  if (!match || power === undefined) throw new RangeError(`Invalid size: ${JSON.stringify(size)}`);
  return Math.floor(Number(match[1]) * 1024 ** power);
}

function allowEntries(allowList: string): string[] {
  return allowList
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== "");
}

/**
 * SPEC §5 file-type rule. An empty file name is rejected. The list `*` allows everything;
 * otherwise the extension (after the last dot, any case) must be in the list, written with or
 * without a leading dot, or else the MIME type must be, either as its full value or as its
 * `type/*` wildcard.
 */
export function isAllowedFileType(fileName: string, mimeType: string, allowList: string): boolean {
  if (!fileName) return false;
  const entries = allowEntries(allowList);
  if (entries.includes("*")) return true;

  const dot = fileName.lastIndexOf(".");
  const extension = dot >= 0 ? fileName.slice(dot + 1).toLowerCase() : "";
  if (extension !== "" && entries.some((entry) => entry.replace(/^\./, "") === extension)) return true;

  const mime = mimeType.split(";")[0]?.trim().toLowerCase() ?? "";
  const slash = mime.indexOf("/");
  if (slash <= 0) return false;
  return entries.includes(mime) || entries.includes(`${mime.slice(0, slash)}/*`);
}

/**
 * The first failing upload check, in SPEC order, or null when the file may be uploaded:
 * incomplete data (no file, no name, or a size that is not a finite number >= 0), then a
 * disallowed type, then a size above `config.maxsize`.
 */
export function checkUpload(
  file: UploadFileInfo | null | undefined,
  config: UploadConfig,
): MessageDescriptor | null {
  if (
    !file ||
    typeof file.name !== "string" ||
    file.name.trim() === "" ||
    typeof file.size !== "number" ||
    !Number.isFinite(file.size) ||
    file.size < 0
  ) {
    return msg`The data of the uploaded file is incomplete!`;
  }
  if (!isAllowedFileType(file.name, file.type ?? "", config.mimetype)) {
    return msg`The type of uploaded file is not allowed!`;
  }
  if (file.size > config.maxsize) {
    return msg`The size of the uploaded file exceeds the allowed range!`;
  }
  return null;
}
