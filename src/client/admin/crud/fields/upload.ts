import type { MessageDescriptor } from "@lingui/core";
import { useState } from "react";
import { sendUpload } from "../../../api/upload.ts";
import { checkUpload, parseSize, type UploadConfig } from "../../../../shared/upload.ts";
import { useSiteConfig } from "../../../stores/siteConfig.ts";

/**
 * Uploads of the back office's form fields (image, images, file) through `POST
 * /admin/ajax/upload`, checked first against the site config's rules (SPEC §5; the server
 * checks again), with progress.
 */

export interface UploadedFile {
  id: number;
  url: string;
  name: string;
  size: number;
  mimetype: string;
  width?: number;
  height?: number;
}

/** The site config's upload rules; an unreadable size leaves the check to the server. */
export function useUploadRules(): UploadConfig {
  const upload = useSiteConfig((s) => s.upload);
  let maxsize = Number.POSITIVE_INFINITY;
  try {
    maxsize = parseSize(upload.maxsize);
  } catch {
    // the server decides
  }
  return { maxsize, mimetype: upload.mimetype };
}

/** Whether a stored file is shown as an image (thumbnail, previewer). */
export const isImageUrl = (url: string): boolean => /\.(png|jpe?g|gif|webp|bmp|avif|svg)$/i.test(url.split("?")[0] ?? "");

/** The suffix of a file name or URL, for the file-type icon. */
export function suffixOf(name: string): string {
  const base = name.split("?")[0]!.split("/").pop() ?? "";
  const dot = base.lastIndexOf(".");
  const suffix = dot > 0 ? base.slice(dot + 1) : "";
  return /^[A-Za-z0-9]{1,8}$/.test(suffix) ? suffix.toLowerCase() : "file";
}

/**
 * The file-type icon the server draws (`buildSuffixSvg`). An <img> sends no token header, so it
 * is the public one: the admin route answers only requests that carry the admin's token.
 */
export const suffixIconUrl = (name: string): string => `/api/ajax/buildSuffixSvg?suffix=${encodeURIComponent(suffixOf(name))}`;

export interface Uploader {
  /** 0-100 while a file is being sent, else null. */
  progress: number | null;
  /** Why the last chosen file was refused before sending (SPEC §5 messages). */
  problem: MessageDescriptor | null;
  upload(file: File): Promise<UploadedFile | null>;
}

export function useUploader(topic = "default", accept?: (file: File) => MessageDescriptor | null): Uploader {
  const rules = useUploadRules();
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<MessageDescriptor | null>(null);
  return {
    progress,
    problem,
    async upload(file) {
      const refused = checkUpload({ name: file.name, size: file.size, type: file.type }, rules) ?? accept?.(file) ?? null;
      setProblem(refused);
      if (refused) return null;
      const form = new FormData();
      form.append("topic", topic);
      form.append("file", file);
      setProgress(0);
      try {
        const res = await sendUpload<{ file: UploadedFile }>("/admin/ajax/upload", form, setProgress);
        return res.file;
      } catch {
        // The request layer has shown why; the field keeps its value.
        return null;
      } finally {
        setProgress(null);
      }
    },
  };
}
