import { useEffect, useRef, useState, type ReactNode } from "react";
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { useLingui } from "@lingui/react/macro";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { ChevronDown, ChevronRight, CircleCheck, CircleDashed, CircleHelp, CircleX, Loader, Package, RotateCw, Settings, SquareTerminal, Trash2 } from "lucide-react";
import { request } from "../../api/index.ts";
import { PACKAGE_MANAGERS, TaskStatus, terminalConfigBody, type PackageManager, type TerminalIndex } from "../../../shared/terminal.ts";
import { Button } from "../../ui/Button.tsx";
import { DialogFrame } from "../../ui/DialogFrame.tsx";
import { useDirtyForm, useGuardedClose } from "../../ui/discardGuard.tsx";
import { Field } from "../../ui/form/Field.tsx";
import { formatTime } from "../../../shared/time.ts";
import { parseAnsi } from "./ansi.ts";
import { canDelete, type TerminalTask } from "./queue.ts";
import { useTerminal } from "./store.ts";
import { usePick } from "../../stores/pick.ts";

const statusInfo: Record<TaskStatus, { label: MessageDescriptor; className: string; icon: ReactNode }> = {
  [TaskStatus.Waiting]: { label: msg({ message: "Waiting", context: "terminal task" }), className: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200", icon: <CircleDashed aria-hidden className="size-3.5" /> },
  [TaskStatus.Connecting]: { label: msg({ message: "Connecting", context: "terminal task" }), className: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200", icon: <Loader aria-hidden className="size-3.5 animate-spin" /> },
  [TaskStatus.Executing]: { label: msg({ message: "Executing", context: "terminal task" }), className: "bg-blue-100 text-blue-900 dark:bg-blue-900/40 dark:text-blue-200", icon: <Loader aria-hidden className="size-3.5 animate-spin" /> },
  [TaskStatus.Success]: { label: msg({ message: "Success", context: "terminal task" }), className: "bg-green-100 text-green-900 dark:bg-green-900/40 dark:text-green-200", icon: <CircleCheck aria-hidden className="size-3.5" /> },
  [TaskStatus.Failed]: { label: msg({ message: "Failed", context: "terminal task" }), className: "bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-200", icon: <CircleX aria-hidden className="size-3.5" /> },
  [TaskStatus.Unknown]: { label: msg({ message: "Unknown", context: "terminal task" }), className: "bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100", icon: <CircleHelp aria-hidden className="size-3.5" /> },
};

/** A task's output, line by line, colours from its ANSI codes; follows the newest line. */
function Output({ lines }: { lines: string[] }) {
  const { t } = useLingui();
  const ref = useRef<HTMLPreElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [lines.length]);
  return (
    <pre
      ref={ref}
      tabIndex={0}
      aria-label={t`Output`}
      className="max-h-64 overflow-auto rounded-md bg-slate-950 p-3 font-mono text-xs leading-5 whitespace-pre-wrap text-slate-100 focus-visible:outline-2 focus-visible:outline-primary"
    >
      {lines.length === 0 ? (
        <span className="text-slate-400">{t`No output yet`}</span>
      ) : (
        lines.map((line, i) => (
          <div key={i} data-testid="terminal-line">
            {parseAnsi(line).map((piece, j) => (
              <span
                key={j}
                style={{
                  color: piece.style.color,
                  backgroundColor: piece.style.background,
                  fontWeight: piece.style.bold ? 700 : undefined,
                  opacity: piece.style.dim ? 0.7 : undefined,
                  fontStyle: piece.style.italic ? "italic" : undefined,
                  textDecoration: piece.style.underline ? "underline" : undefined,
                }}
              >
                {piece.text}
              </span>
            ))}
            {line === "" && "\u00a0"}
          </div>
        ))
      )}
    </pre>
  );
}

function TaskItem({ task }: { task: TerminalTask }) {
  const { t, i18n } = useLingui();
  const retry = useTerminal((s) => s.retryTask);
  const remove = useTerminal((s) => s.deleteTask);
  const toggleMessage = useTerminal((s) => s.toggleMessage);
  const status = statusInfo[task.status];
  const command = task.command;
  const running = task.status === TaskStatus.Connecting || task.status === TaskStatus.Executing;
  return (
    <li data-testid="terminal-task" data-command={task.command} className="rounded-lg border border-slate-200 p-2 dark:border-slate-700">
      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant="bare"
          className="flex min-h-9 min-w-0 flex-1 items-center gap-1.5 rounded-md px-1 text-left hover:bg-slate-50 dark:hover:bg-slate-800"
          aria-expanded={task.showMessage}
          onClick={() => toggleMessage(task.uuid)}
        >
          {task.showMessage ? <ChevronDown aria-hidden className="size-4 shrink-0" /> : <ChevronRight aria-hidden className="size-4 shrink-0" />}
          <code className="truncate font-mono text-sm font-semibold">{task.command}</code>
          {/* On a phone the command needs the room: the time is left out. */}
          <span className="ml-auto shrink-0 text-xs text-slate-500 tabular-nums max-sm:hidden dark:text-slate-400">{formatTime(task.createTime)}</span>
        </Button>
        <span data-testid="terminal-status" className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ${status.className}`}>
          {status.icon}
          {i18n._(status.label)}
        </span>
        <Button variant="ghost" size="iconSm" aria-label={t`Retry ${command}`} title={t`Retry`} disabled={running} onClick={() => retry(task.uuid)}>
          <RotateCw aria-hidden className="size-4" />
        </Button>
        <Button
          variant="dangerGhost"
          size="iconSm"
          aria-label={t`Delete ${command}`}
          title={canDelete(task) ? t`Delete` : t`A running task cannot be deleted`}
          disabled={!canDelete(task)}
          onClick={() => remove(task.uuid)}
        >
          <Trash2 aria-hidden className="size-4" />
        </Button>
      </div>
      {task.showMessage && (
        <div className="mt-2">
          <Output lines={task.message} />
        </div>
      )}
    </li>
  );
}

/** The header's terminal button: opens and closes the panel; a dot while something new waits in it. */
export function TerminalButton() {
  const { t } = useLingui();
  const { show, showDot, toggle } = usePick(useTerminal, "show", "showDot", "toggle");
  return (
    <Button variant="ghost" size="icon" className="relative" aria-label={showDot ? t`Terminal (new output)` : t`Terminal`} aria-pressed={show} onClick={() => toggle()}>
      <SquareTerminal aria-hidden className="size-5" />
      {showDot && !show && <span data-testid="terminal-dot" aria-hidden className="absolute top-2 right-2 size-2.5 rounded-full bg-red-600 ring-2 ring-white dark:ring-slate-900" />}
    </Button>
  );
}

/** The terminal panel (SPEC §1, §2, §4): the task list, the common commands, the two dialogs. */
export function TerminalPanel() {
  const { t } = useLingui();
  const terminal = usePick(useTerminal, "show", "taskList", "packageManager", "toggle", "addTask", "addTaskPM", "clearSuccessTask", "togglePackageManagerDialog", "toggleConfigDialog");
  const { show, taskList: tasks, packageManager, toggle, addTask, addTaskPM } = terminal;
  return (
    <>
      <DialogFrame open={show} onOpenChange={toggle} title={t`Terminal`} size="xl">
        <div className="space-y-3">
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => addTask("version.node", false)}>{t`Node version`}</Button>
            <Button onClick={() => addTaskPM("version", false)}>{t`${packageManager} version`}</Button>
            <Button variant="primary" onClick={() => addTaskPM("install")}>{t`Install dependencies`}</Button>
            <Button onClick={() => addTaskPM("web-build")}>{t`Rebuild the web app`}</Button>
            <Button variant="ghost" onClick={terminal.clearSuccessTask}>{t`Clear successful tasks`}</Button>
            <div className="flex-1" />
            <Button variant="ghost" onClick={() => terminal.togglePackageManagerDialog(true)}>
              <Package aria-hidden className="size-4" />
              {t`Package manager: ${packageManager}`}
            </Button>
            <Button variant="ghost" onClick={() => terminal.toggleConfigDialog(true)}>
              <Settings aria-hidden className="size-4" />
              {t`Settings`}
            </Button>
          </div>
          {tasks.length === 0 ? (
            <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500 dark:border-slate-600 dark:text-slate-400">
              {t`No tasks yet: run a command above.`}
            </p>
          ) : (
            <ul aria-label={t`Tasks`} className="space-y-2">
              {tasks.map((task) => (
                <TaskItem key={task.uuid} task={task} />
              ))}
            </ul>
          )}
        </div>
      </DialogFrame>
      <PackageManagerDialog />
      <ConfigDialog />
    </>
  );
}

async function saveTerminalConfig(body: { manager?: PackageManager; port?: number }): Promise<boolean> {
  try {
    const res = await request<TerminalIndex>({ url: "/admin/ajax/changeTerminalConfig", method: "post", data: body }, { showSuccessMessage: true });
    useTerminal.getState().setServerConfig({ packageManager: res.data.npmPackageManager, port: res.data.installServicePort });
    return true;
  } catch {
    return false;
  }
}

/** Which package manager the package commands use (stored on the server). */
function PackageManagerDialog() {
  const { t } = useLingui();
  const open = useTerminal((s) => s.showPackageManagerDialog);
  const current = useTerminal((s) => s.packageManager);
  const setOpen = useTerminal((s) => s.togglePackageManagerDialog);
  const [saving, setSaving] = useState(false);
  const choose = async (manager: PackageManager) => {
    setSaving(true);
    if (await saveTerminalConfig({ manager })) setOpen(false);
    setSaving(false);
  };
  return (
    <DialogFrame open={open} onOpenChange={setOpen} title={t`Package manager`}>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-300">{t`The commands that install and build run with this package manager on the server.`}</p>
      <div role="radiogroup" aria-label={t`Package manager`} className="grid grid-cols-2 gap-2">
        {PACKAGE_MANAGERS.map((pm) => (
          <Button
            key={pm}
            variant="bare"
            role="radio"
            aria-checked={pm === current}
            disabled={saving}
            onClick={() => void choose(pm)}
            className={`flex min-h-11 items-center justify-center gap-2 rounded-md border font-mono text-sm ${
              pm === current ? "border-primary bg-primary/10 font-semibold" : "border-slate-300 hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800"
            }`}
          >
            {pm === current && <CircleCheck aria-hidden className="size-4 text-primary" />}
            {pm}
          </Button>
        ))}
      </div>
    </DialogFrame>
  );
}

/** The port as typed: digits only (no "0x50" or "8e1"), then the server's own bounds. */
const portForm = z.object({
  port: z
    .string()
    .regex(/^\d{1,5}$/)
    .transform(Number)
    .refine((n) => terminalConfigBody.shape.port.safeParse(n).success),
});

/** The terminal's settings: automatic clean-up (this browser) and the port (the server). */
function ConfigDialog() {
  const { t } = useLingui();
  const open = useTerminal((s) => s.showConfig);
  const setOpen = useTerminal((s) => s.toggleConfigDialog);
  return (
    <DialogFrame open={open} onOpenChange={setOpen} title={t`Terminal settings`}>
      <ConfigForm onDone={() => setOpen(false)} />
    </DialogFrame>
  );
}

/** Inside the dialog (mounted while it is open), so a port typed and not saved makes closing ask first. */
function ConfigForm({ onDone }: { onDone: () => void }) {
  const { t } = useLingui();
  const cleanup = useTerminal((s) => s.automaticCleanupTask);
  const setCleanup = useTerminal((s) => s.setAutomaticCleanupTask);
  const port = useTerminal((s) => s.port);
  // Checked as it is typed, so Save is off while the port is not one.
  const form = useForm<z.input<typeof portForm>, unknown, z.output<typeof portForm>>({ mode: "onChange", values: { port: String(port) }, resolver: zodResolver(portForm) });
  useDirtyForm(form.formState.isDirty);
  const cancel = useGuardedClose(onDone);
  const valid = !form.formState.errors.port;
  const save = async (next: number) => {
    if (next !== port && !(await saveTerminalConfig({ port: next }))) return;
    onDone();
  };
  return (
    <form className="space-y-4" onSubmit={(e) => void form.handleSubmit(({ port: next }) => save(next))(e)}>
      <label className="flex min-h-11 items-center gap-3 text-sm">
        <input type="checkbox" className="size-5 accent-primary" checked={cleanup === 1} onChange={(e) => setCleanup(e.target.checked ? 1 : 0)} />
        <span>
          <span className="block font-medium">{t`Clean up automatically`}</span>
          <span className="block text-xs text-slate-500 dark:text-slate-400">{t`Successful tasks are removed when a new task is added.`}</span>
        </span>
      </label>
      <Field label={t`Install service port`} inputMode="numeric" {...form.register("port")} error={valid ? null : t`Enter a port from 1 to 65535`} />
      <div className="flex justify-end gap-2">
        <Button onClick={cancel}>{t`Cancel`}</Button>
        <Button type="submit" variant="primary" disabled={!valid}>
          {t`Save`}
        </Button>
      </div>
    </form>
  );
}
