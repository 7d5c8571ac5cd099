/**
 * Images inside a question's stem and options: the text is plain text in which an image is the
 * token `![](url)` (written by the back office's question editor, kept as is by import/export).
 * Only uploaded files (`/storage/...`) and http(s) URLs become images; anything else stays text.
 */

export type TextPart = { kind: "text"; text: string } | { kind: "image"; url: string };

const IMAGE = /!\[\]\(([^()\s]{1,500})\)/g;

export function isImageUrl(url: string): boolean {
  return /^\/storage\/[\w./-]+$/.test(url) && !url.includes("..") ? true : /^https?:\/\/[^\s"'<>]+$/i.test(url);
}

/** The text and image parts of a stem or option, in order. */
export function textParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const m of text.matchAll(IMAGE)) {
    const url = m[1]!;
    if (!isImageUrl(url)) continue;
    if (m.index > last) parts.push({ kind: "text", text: text.slice(last, m.index) });
    parts.push({ kind: "image", url });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ kind: "text", text: text.slice(last) });
  return parts;
}

/** The token that puts an image into a stem or option. */
export const imageToken = (url: string): string => `![](${url})`;
