import { useLingui } from "@lingui/react/macro";
import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { Bold, Code, Heading2, Heading3, Italic, Link2, List, ListOrdered, Quote, Redo2, Strikethrough, Underline, Undo2, type LucideIcon } from "lucide-react";
import { useEffect } from "react";
import type { FieldControlProps } from "../../../ui/form/Field.tsx";
import { Button } from "../../../ui/Button.tsx";

/**
 * The TipTap editor of the `richText` field (loaded on demand by RichTextField: its own chunk).
 * It edits HTML; the server sanitises what it stores (src/server/crud/richText.ts), so the
 * toolbar offers only what that keeps: headings, bold, italic, underline, strike, lists, quotes,
 * code and links.
 */

interface Tool {
  name: string;
  icon: LucideIcon;
  active?: (e: Editor) => boolean;
  run: (e: Editor) => void;
}

export default function RichTextEditor({ control, label, value, onChange, error }: { control: FieldControlProps; label: string; value: string; onChange: (html: string) => void; error?: unknown }) {
  const { t } = useLingui();
  const editor = useEditor({
    extensions: [StarterKit.configure({ heading: { levels: [2, 3] }, link: { openOnClick: false, protocols: ["http", "https", "mailto"], defaultProtocol: "https" } })],
    content: value,
    editorProps: {
      attributes: {
        ...(control["aria-describedby"] ? { "aria-describedby": control["aria-describedby"] } : {}),
        ...(control["aria-invalid"] ? { "aria-invalid": "true" } : {}),
        id: control.id,
        role: "textbox",
        "aria-label": label,
        "aria-multiline": "true",
        class: "min-h-40 px-3 py-2 outline-none [&_blockquote]:border-l-4 [&_blockquote]:border-slate-300 [&_blockquote]:pl-3 [&_h2]:text-lg [&_h2]:font-semibold [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:pl-6 [&_pre]:rounded [&_pre]:bg-slate-100 [&_pre]:p-2 dark:[&_pre]:bg-slate-800 [&_ul]:list-disc [&_ul]:pl-6 [&_a]:text-primary [&_a]:underline",
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? "" : e.getHTML()),
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

  return (
    <div className={`overflow-hidden rounded-md border bg-white dark:bg-slate-800 ${error ? "border-red-500" : "border-slate-300 dark:border-slate-600"}`}>
      <div role="toolbar" aria-label={t`Formatting`} className="flex flex-wrap gap-0.5 border-b border-slate-200 p-1 dark:border-slate-700">
        {tools.map((tool) => {
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
        })}
      </div>
      <EditorContent editor={editor} />
    </div>
  );
}
