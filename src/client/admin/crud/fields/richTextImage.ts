import { mergeAttributes, Node } from "@tiptap/react";

/**
 * Images in the rich-text editor: a block <img> whose address is a stored file (/storage/...),
 * another site-relative path or an http(s) URL, the addresses the server's sanitiser keeps. An
 * <img> with any other address (a data: or blob: URI pasted from another page) is not read into
 * the document, so its bytes are never saved inside the HTML: image files are uploaded instead.
 */
export function isKeptImageSrc(src: string | null | undefined): src is string {
  if (!src) return false;
  const value = src.trim();
  if (value.startsWith("/")) return !value.startsWith("//");
  return /^https?:\/\//i.test(value);
}

export const RichTextImage = Node.create({
  name: "image",
  group: "block",
  draggable: true,
  atom: true,
  addAttributes() {
    return {
      src: { default: null },
      alt: { default: "" },
      title: { default: null },
    };
  },
  parseHTML() {
    return [{ tag: "img[src]", getAttrs: (element) => (isKeptImageSrc(element.getAttribute("src")) ? null : false) }];
  },
  renderHTML({ HTMLAttributes }) {
    return ["img", mergeAttributes(HTMLAttributes)];
  },
});

/** The image files among a paste's or a drop's files (others are left to the editor). */
export function imageFilesOf(data: DataTransfer | null): File[] {
  return [...(data?.files ?? [])].filter((file) => file.type.startsWith("image/"));
}

/** The alternative text an uploaded image starts with: its file name without the extension. */
export function altOf(name: string): string {
  return name.replace(/\.[^.]+$/, "").trim();
}
