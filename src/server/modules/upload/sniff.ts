import { fileTypeFromBuffer, supportedExtensions, type FileTypeResult } from "file-type";
import { imageSize as measureImage } from "image-size";
import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { checkUpload, isAllowedFileType, type UploadConfig } from "../../../shared/upload.ts";

/**
 * What an upload is (SPEC §5): its name made safe, its content sniffed (file-type) against the
 * name and the declared MIME type, and an image's width and height (image-size).
 */

const NAME_MAX = 100;

export const TYPE_NOT_ALLOWED = (): MessageDescriptor => msg`The type of uploaded file is not allowed!`;

/** Claimed extension -> detected (file-type) extensions that agree with it. */
const COMPATIBLE: Record<string, readonly string[]> = {
  jpg: ["jpg"],
  jpeg: ["jpg"],
  jpe: ["jpg"],
  jfif: ["jpg"],
  png: ["png", "apng"],
  tiff: ["tif"],
  mp4: ["mp4", "m4v", "mov", "m4a", "3gp", "f4v"],
  m4v: ["m4v", "mp4", "mov"],
  m4a: ["m4a", "mp4"],
  mov: ["mov", "mp4", "m4v"],
  webm: ["webm", "mkv"],
  mkv: ["mkv", "webm"],
  ogg: ["ogg", "oga", "ogv", "opus", "spx", "ogm", "ogx"],
  oga: ["oga", "ogg", "opus", "spx"],
  ogv: ["ogv", "ogg", "ogm"],
  zip: ["zip", "docx", "xlsx", "pptx", "epub", "jar", "apk", "odt", "ods", "odp", "xpi"],
  docx: ["docx", "zip"],
  xlsx: ["xlsx", "zip"],
  pptx: ["pptx", "zip"],
  doc: ["cfb"],
  xls: ["cfb"],
  ppt: ["cfb"],
};

/** Text formats file-type cannot (or need not) recognise: accepted when the bytes hold no NUL. */
const TEXT_TYPES: Record<string, string> = {
  txt: "text/plain",
  text: "text/plain",
  log: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  json: "application/json",
  xml: "application/xml",
  yaml: "application/yaml",
  yml: "application/yaml",
  ini: "text/plain",
  srt: "text/plain",
  vtt: "text/vtt",
  ics: "text/calendar",
  vcf: "text/vcard",
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  js: "text/javascript",
  svg: "image/svg+xml",
};

export interface ImageSize {
  width: number;
  height: number;
}

export interface ReceivedFile {
  /** Sanitised original name (display only). */
  name: string;
  /** MIME type the client declared. */
  mimetype: string;
  size: number;
  /** The stream hit the multipart limit (maxsize + 1): too large. */
  truncated: boolean;
  head: Buffer;
  hasNul: boolean;
  sha1: string;
  /** Where the bytes were written; null when the name alone already failed the type check. */
  tmpPath: string | null;
}

export interface Verdict {
  failure: MessageDescriptor | null;
  detected?: FileTypeResult;
  /** Stored file's extension (never taken from the client unless it passed the type rule). */
  suffix?: string;
  mimetype?: string;
}

/**
 * A client file name made safe to keep for display: no path (either slash), no control or
 * bidi-override characters, at most 100 characters (the extension is kept when cut).
 */
export function sanitizeFileName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? "";
  const clean = [...base]
    .filter((ch) => {
      const c = ch.codePointAt(0) ?? 0;
      return c >= 0x20 && !(c >= 0x7f && c <= 0x9f) && !(c >= 0x202a && c <= 0x202e) && !(c >= 0x2066 && c <= 0x2069);
    })
    .join("")
    .trim();
  if (clean === "." || clean === "..") return "";
  const chars = [...clean];
  if (chars.length <= NAME_MAX) return clean;
  const dot = clean.lastIndexOf(".");
  const ext = dot > 0 ? [...clean.slice(dot)] : [];
  if (ext.length === 0 || ext.length > 17) return chars.slice(0, NAME_MAX).join("");
  return chars.slice(0, NAME_MAX - ext.length).join("") + ext.join("");
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : "";
}

const mimeOf = (value: string): string => value.split(";")[0]?.trim().toLowerCase() ?? "";

/** Formats whose size `imageSize` reports (image-size knows more; these are the ones stored). */
const MEASURED = new Set(["png", "apng", "gif", "bmp", "webp", "jpg", "avif", "heic", "ico", "tif", "psd"]);

/**
 * Width and height of an image of the sniffed `type` from its bytes (image-size; a JPEG's frame
 * header may lie past a buffer of its first bytes). Undefined when not an image or not found.
 */
export function imageSize(buf: Uint8Array, type: string): ImageSize | undefined {
  if (!MEASURED.has(type)) return undefined;
  try {
    const { width, height } = measureImage(buf);
    return width > 0 && height > 0 ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * SPEC §5 order: incomplete data, disallowed type, size above the maximum. The type check is
 * the name/MIME rule (checkUpload) and then the content: what file-type recognises must agree
 * with the extension (or, for a file allowed by its MIME type only, with that MIME type); text
 * formats it cannot recognise must hold no NUL byte; a known binary format must be recognised.
 */
export async function judgeUpload(file: ReceivedFile | null, broken: boolean, rules: UploadConfig): Promise<Verdict> {
  if (broken || !file || file.size === 0) return { failure: checkUpload(null, rules) };
  const declared = checkUpload({ name: file.name, type: file.mimetype, size: 0 }, rules);
  if (declared) return { failure: declared };

  let detected: FileTypeResult | undefined;
  try {
    detected = await fileTypeFromBuffer(file.head);
  } catch {
    detected = undefined;
  }
  const ext = extensionOf(file.name);
  const byExtension = isAllowedFileType(file.name, "", rules.mimetype);
  const safeExt = /^[a-z0-9]{1,16}$/.test(ext) ? ext : "";
  let verdict: Verdict;
  if (byExtension && safeExt === "") {
    // The list is `*` and the name has no usable extension: nothing to contradict.
    verdict = { failure: null, detected, suffix: detected?.ext ?? "", mimetype: detected?.mime ?? "application/octet-stream" };
  } else if (byExtension) {
    let ok: boolean;
    if (TEXT_TYPES[ext] !== undefined) ok = !file.hasNul;
    else if (detected) ok = detected.ext === ext || (COMPATIBLE[ext]?.includes(detected.ext) ?? !isKnownBinary(ext));
    else ok = !isKnownBinary(ext);
    verdict = ok
      ? { failure: null, detected, suffix: ext, mimetype: TEXT_TYPES[ext] ?? detected?.mime ?? "application/octet-stream" }
      : { failure: TYPE_NOT_ALLOWED() };
  } else {
    // Allowed by the declared MIME type only: the content decides the stored suffix.
    const declaredMime = mimeOf(file.mimetype);
    if (detected) {
      verdict = detected.mime === declaredMime ? { failure: null, detected, suffix: detected.ext, mimetype: detected.mime } : { failure: TYPE_NOT_ALLOWED() };
    } else if (declaredMime.startsWith("text/") && !file.hasNul) {
      verdict = { failure: null, suffix: "txt", mimetype: "text/plain" };
    } else {
      verdict = { failure: TYPE_NOT_ALLOWED() };
    }
  }
  if (verdict.failure) return verdict;
  const size = file.truncated ? Math.max(file.size, rules.maxsize + 1) : file.size;
  const failure = checkUpload({ name: file.name, type: file.mimetype, size }, rules);
  return failure ? { failure } : verdict;
}

function isKnownBinary(ext: string): boolean {
  return supportedExtensions.has(ext) || COMPATIBLE[ext] !== undefined;
}

