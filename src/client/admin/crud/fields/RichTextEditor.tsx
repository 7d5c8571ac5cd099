import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { Bold, Code, Heading2, Heading3, ImagePlus, Italic, Link2, List, ListOrdered, Quote, Redo2, Strikethrough, Underline, Undo2, type LucideIcon } from "lucide-react";
import { useEffect, useLayoutEffect, useRef } from "react";
import { RICH_TEXT_IMAGE_ACCEPT, RICH_TEXT_IMAGE_MIMETYPE, RICH_TEXT_IMAGE_TOPIC } from "../../../../shared/richTextImage.ts";
import { isAllowedFileType } from "../../../../shared/upload.ts";
import type { FieldControlProps } from "../../../ui/form/Field.tsx";
import { Button } from "../../../ui/Button.tsx";
import { FileUploadButton } from "../../../ui/FileUploadButton.tsx";
import { altOf, imageFilesOf, RichTextImage } from "./richTextImage.ts";
import { UploadStatus } from "./UploadProgress.tsx";
import { useUploader } from "./upload.ts";

/**
 * The TipTap editor of the `richText` field (loaded on demand by RichTextField: its own chunk).
 * It edits HTML; the server sanitises what it stores (src/server/crud/richText.ts), so the
 * toolbar offers only what that keeps: headings, bold, italic, underline, strike, lists, quotes,
 * code, links and images. An image is uploaded (the image button, or an image file pasted or
 * dropped) and inserted as its /storage/ address.
 */

const notImage = msg`Please choose an image`;

interface Tool {
  name: string;
  icon: LucideIcon;
  active?: (e: Editor) => boolean;
  run: (e: Editor) => void;
}

export default function RichTextEditor({ control, label, value, onChange, error }: { control: FieldControlProps; label: string; value: string; onChange: (html: string) => void; error?: unknown }) {
  const { t } = useLingui();
  const uploader = useUploader(RICH_TEXT_IMAGE_TOPIC, (file) => (isAllowedFileType(file.name, file.type, RICH_TEXT_IMAGE_MIMETYPE) ? null : notImage));
  // The editor's paste and drop handlers are made once: they reach today's insertImages through this.
  const insertRef = useRef<(files: File[], at?: number) => Promise<void>>(async () => undefined);
  const editor = useEditor({
    extensions: [StarterKit.configure({ heading: { levels: [2, 3] }, link: { openOnClick: false, protocols: ["http", "https", "mailto"], defaultProtocol: "https" } }), RichTextImage],
    content: value,
    editorProps: {
      // An image file pasted or dropped is uploaded, not embedded (its bytes as a data: URI).
      handlePaste: (_view, event) => {
        const files = imageFilesOf(event.clipboardData);
        if (files.length === 0) return false;
        event.preventDefault();
        void insertRef.current(files);
        return true;
      },
      handleDrop: (view, event, _slice, moved) => {
        const files = moved ? [] : imageFilesOf(event.dataTransfer);
        if (files.length === 0) return false;
        event.preventDefault();
        void insertRef.current(files, view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos);
        return true;
      },
      attributes: {
        ...(control["aria-describedby"] ? { "aria-describedby": control["aria-describedby"] } : {}),
        ...(control["aria-invalid"] ? { "aria-invalid": "true" } : {}),
        id: control.id,
        role: "textbox",
        "aria-label": label,
        "aria-multiline": "true",
        class: "min-h-40 px-3 py-2 outline-none [&_blockquote]:border-l-4 [&_blockquote]:border-slate-300 [&_blockquote]:pl-3 [&_h2]:text-lg [&_h2]:font-semibold [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:pl-6 [&_pre]:rounded [&_pre]:bg-slate-100 [&_pre]:p-2 dark:[&_pre]:bg-slate-800 [&_ul]:list-disc [&_ul]:pl-6 [&_a]:text-primary [&_a]:underline [&_img]:my-2 [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded [&_img.ProseMirror-selectednode]:outline-2 [&_img.ProseMirror-selectednode]:outline-primary",
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? "" : e.getHTML()),
  });
  /**
   * Uploads the files one after another and inserts each image: at `at` (a drop's place) or at
   * the cursor. A refused file stops the rest (its reason is shown under the editor).
   */
  async function insertImages(files: File[], at?: number) {
    let place = at;
    for (const file of files) {
      const done = await uploader.upload(file);
      if (!done || !editor || editor.isDestroyed) break;
      const image = { type: "image", attrs: { src: done.url, alt: altOf(done.name || file.name) } };
      if (place === undefined) editor.chain().focus().insertContent(image).run();
      else editor.chain().focus().insertContentAt(place, image).run();
      // The next one goes after it (where the insert left the cursor).
      place = undefined;
    }
  }
  useLayoutEffect(() => {
    insertRef.current = insertImages;
  });
  // A value set from outside (the form reset) replaces the content. The hook may hand back an
  // editor it has already destroyed (re-created on a remount): such an editor has no schema.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    if (value !== editor.getHTML() && !(value === "" && editor.isEmpty)) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);
  const tools: Tool[] = [
    { name: t`Bold`, icon: Bold, active: (e) => e.isActive("bold"), run: (e) => e.chain().focus().toggleBold().run() },
    { name: t`Italic`, icon: Italic, active: (e) => e.isActive("italic"), run: (e) => e.chain().focus().toggleItalic().run() },
    { name: t`Underline`, icon: Underline, active: (e) => e.isActive("underline"), run: (e) => e.chain().focus().toggleUnderline().run() },
    { name: t`Strikethrough`, icon: Strikethrough, active: (e) => e.isActive("strike"), run: (e) => e.chain().focus().toggleStrike().run() },
    { name: t`Heading 2`, icon: Heading2, active: (e) => e.isActive("heading", { level: 2 }), run: (e) => e.chain().focus().toggleHeading({ level: 2 }).run() },
    { name: t`Heading 3`, icon: Heading3, active: (e) => e.isActive("heading", { level: 3 }), run: (e) => e.chain().focus().toggleHeading({ level: 3 }).run() },
    { name: t`Bulleted list`, icon: List, active: (e) => e.isActive("bulletList"), run: (e) => e.chain().focus().toggleBulletList().run() },
    { name: t`Numbered list`, icon: ListOrdered, active: (e) => e.isActive("orderedList"), run: (e) => e.chain().focus().toggleOrderedList().run() },
    { name: t`Quote`, icon: Quote, active: (e) => e.isActive("blockquote"), run: (e) => e.chain().focus().toggleBlockquote().run() },
    { name: t`Code block`, icon: Code, active: (e) => e.isActive("codeBlock"), run: (e) => e.chain().focus().toggleCodeBlock().run() },
    {
      name: t`Link`,
      icon: Link2,
      active: (e) => e.isActive("link"),
      run: (e) => {
        const previous = (e.getAttributes("link").href as string | undefined) ?? "";
        const href = window.prompt(t`Link address (http, https or mailto)`, previous);
        if (href === null) return;
        if (href.trim() === "") e.chain().focus().extendMarkRange("link").unsetLink().run();
        else e.chain().focus().extendMarkRange("link").setLink({ href: href.trim() }).run();
      },
    },
    { name: t`Undo`, icon: Undo2, run: (e) => e.chain().focus().undo().run() },
    { name: t`Redo`, icon: Redo2, run: (e) => e.chain().focus().redo().run() },
  ];

  const active = useEditorState({
    editor,
    selector: ({ editor: e }) => (e ? Object.fromEntries(tools.map((tool) => [tool.name, tool.active?.(e) ?? false])) : {}),
  });

  const toolButton = (tool: Tool) => {
    const on = tool.active ? Boolean(active?.[tool.name]) : undefined;
    return (
      // A toggle: its pressed state is drawn here (a tint), which no button variant has.
      <Button
        key={tool.name}
        variant="bare"
        title={tool.name}
        aria-label={tool.name}
        aria-pressed={on}
        disabled={!editor}
        onClick={() => editor && tool.run(editor)}
        className={`inline-flex size-9 items-center justify-center rounded ${on ? "bg-primary/15 text-primary" : "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-700"}`}
      >
        <tool.icon className="size-4" aria-hidden />
      </Button>
    );
  };
  const uploading = uploader.progress !== null;
  return (
    <div className="space-y-2">
      <div className={`overflow-hidden rounded-md border bg-white dark:bg-slate-800 ${error ? "border-red-500" : "border-slate-300 dark:border-slate-600"}`}>
        <div role="toolbar" aria-label={t`Formatting`} className="flex flex-wrap gap-0.5 border-b border-slate-200 p-1 dark:border-slate-700">
          {tools.slice(0, -2).map(toolButton)}
          <FileUploadButton
            variant="bare"
            title={t`Insert image`}
            aria-label={t`Insert image`}
            disabled={!editor || uploading}
            accept={RICH_TEXT_IMAGE_ACCEPT}
            multiple
            onFiles={(files) => void insertImages(files)}
            inputLabel={t`Insert image`}
            inputTestId="richtext-image-input"
            className="inline-flex size-9 items-center justify-center rounded text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-700"
          >
            <ImagePlus className="size-4" aria-hidden />
          </FileUploadButton>
          {/* Undo and redo stay last. */}
          {tools.slice(-2).map(toolButton)}
        </div>
        <EditorContent editor={editor} />
      </div>
      <UploadStatus progress={uploader.progress} problem={uploader.problem} />
    </div>
  );
}
