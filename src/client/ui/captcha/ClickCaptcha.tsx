import { useCallback, useEffect, useState, type MouseEvent } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { Dialog } from "radix-ui";
import { RefreshCw, X } from "lucide-react";
import { uuid } from "../../../shared/uuid.ts";
import { request } from "../../api/index.ts";
import { Spinner } from "../Spinner.tsx";
import { formatClickInfo } from "./clickInfo.ts";

interface CaptchaImage {
  id: string;
  text: string[];
  base64: string;
  width: number;
  height: number;
}

type Status = "loading" | "ready" | "checking" | "failed" | "success" | "loadFailed";

async function fetchCaptcha(): Promise<CaptchaImage> {
  const res = await request<CaptchaImage>(
    { url: "/api/common/clickCaptcha", method: "get", params: { id: uuid() } },
    { showCodeMessage: false, showErrorMessage: false, cancelDuplicateRequest: false },
  );
  return res.data;
}

/**
 * The click captcha (SPEC §8 messages): click the characters in the order shown; the clicks go
 * to the server, which alone knows where the characters are.
 */
export function ClickCaptcha({
  open,
  onOpenChange,
  onSuccess,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  onSuccess(result: { captchaId: string; captchaInfo: string }): void;
}) {
  const { t } = useLingui();
  const [image, setImage] = useState<CaptchaImage | null>(null);
  const [points, setPoints] = useState<{ x: number; y: number }[]>([]);
  const [status, setStatus] = useState<Status>("loading");

  const show = useCallback((data: CaptchaImage | null) => {
    setImage(data);
    setPoints([]);
    setStatus(data ? "ready" : "loadFailed");
  }, []);

  const load = () => {
    setStatus("loading");
    setPoints([]);
    fetchCaptcha().then(show, () => show(null));
  };

  useEffect(() => {
    if (!open) return;
    let live = true;
    fetchCaptcha().then(
      (data) => live && show(data),
      () => live && show(null),
    );
    return () => {
      live = false;
    };
  }, [open, show]);

  async function check(next: { x: number; y: number }[], rendered: { width: number; height: number }) {
    if (!image) return;
    const info = formatClickInfo(next, rendered.width, rendered.height);
    setStatus("checking");
    try {
      await request({ url: "/api/common/checkClickCaptcha", method: "post", data: { id: image.id, info, unset: false } }, { showCodeMessage: false });
      setStatus("success");
      setTimeout(() => {
        onOpenChange(false);
        onSuccess({ captchaId: image.id, captchaInfo: info });
      }, 400);
    } catch {
      setStatus("failed");
      setTimeout(load, 900);
    }
  }

  function onClick(event: MouseEvent<HTMLImageElement>) {
    if (!image || status !== "ready") return;
    const rect = event.currentTarget.getBoundingClientRect();
    const next = [...points, { x: event.clientX - rect.left, y: event.clientY - rect.top }];
    setPoints(next);
    if (next.length >= image.text.length) void check(next, { width: rect.width, height: rect.height });
  }

  const order = image?.text.join(" ") ?? "";
  const message =
    status === "failed" ? t`Wrong area clicked, try again` : status === "success" ? t`Verification is successful` : t`Please click in order: ${order}`;

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(94vw,24rem)] -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-4 shadow-xl dark:bg-slate-900 dark:text-slate-100">
          <div className="mb-2 flex items-center justify-between gap-2">
            <Dialog.Title className="font-semibold">
              <Trans>Security check</Trans>
            </Dialog.Title>
            <div className="flex">
              <button type="button" aria-label={t`Refresh`} onClick={() => void load()} className="inline-flex size-11 items-center justify-center rounded hover:bg-slate-100 dark:hover:bg-slate-800">
                <RefreshCw aria-hidden className="size-4" />
              </button>
              <Dialog.Close aria-label={t`Close`} className="inline-flex size-11 items-center justify-center rounded hover:bg-slate-100 dark:hover:bg-slate-800">
                <X aria-hidden className="size-4" />
              </Dialog.Close>
            </div>
          </div>
          <Dialog.Description
            aria-live="polite"
            className={`mb-2 text-sm ${status === "failed" ? "text-red-700 dark:text-red-400" : status === "success" ? "text-emerald-700 dark:text-emerald-400" : "text-slate-700 dark:text-slate-300"}`}
          >
            {status === "loadFailed" ? t`Loading failed, click to refresh` : message}
          </Dialog.Description>
          <div className="relative aspect-[7/4] w-full overflow-hidden rounded-md bg-slate-100 dark:bg-slate-800">
            {status === "loadFailed" ? (
              <button type="button" onClick={() => void load()} className="flex size-full items-center justify-center text-sm text-primary">
                <Trans>Loading failed, click to refresh</Trans>
              </button>
            ) : image && status !== "loading" ? (
              <>
                <img src={image.base64} alt={t`Captcha image: click the characters in order`} onClick={onClick} draggable={false} className="size-full cursor-pointer select-none" />
                {points.map((p, i) => (
                  <span
                    key={i}
                    aria-hidden
                    style={{ left: p.x - 12, top: p.y - 12 }}
                    className="pointer-events-none absolute flex size-6 items-center justify-center rounded-full bg-primary text-xs font-bold text-white shadow"
                  >
                    {i + 1}
                  </span>
                ))}
              </>
            ) : (
              <div className="flex size-full items-center justify-center">
                <Spinner />
              </div>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
