import { useCallback, useEffect, useRef, useState, type MouseEvent } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { Dialog } from "radix-ui";
import { RefreshCw, X } from "lucide-react";
import { uuid } from "../../../shared/uuid.ts";
import { request, serverRefusal } from "../../api/index.ts";
import { Button, buttonClass } from "../../ui/Button.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { clickFraction, formatClickInfo, toRendered, type Point } from "./clickInfo.ts";

interface CaptchaImage {
  id: string;
  /** The characters to click, in order. */
  text: string[];
  /** PNG data URL. */
  base64: string;
  width: number;
  height: number;
}

export interface ClickCaptchaResult {
  captchaId: string;
  captchaInfo: string;
}

export interface ClickCaptchaProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The captcha was verified: login or registration sends these along. */
  onSuccess(result: ClickCaptchaResult): void;
}

type Phase = "loading" | "ready" | "checking" | "wrong" | "success" | "loadFailed";

/** How long "Verification is successful" and a wrong attempt's markers stay visible. */
const SUCCESS_DELAY_MS = 600;
const WRONG_DELAY_MS = 800;


async function fetchCaptcha(): Promise<CaptchaImage> {
  const id = uuid();
  const res = await request<CaptchaImage>(
    { url: "/api/common/clickCaptcha", method: "get", params: { id } },
    { showCodeMessage: false, cancelDuplicateRequest: false },
  );
  return { ...res.data, id };
}


/**
 * The click captcha (SPEC §8): the member clicks the characters in the order listed; after the
 * last click the points go to the server, which alone knows where the characters are. Success
 * hands `{captchaId, captchaInfo}` to the caller (login/register consume it) and closes; a wrong
 * try shows why and loads a new captcha.
 */
export function ClickCaptcha({ open, onOpenChange, onSuccess }: ClickCaptchaProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(94vw,24rem)] -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-4 shadow-xl outline-none dark:bg-slate-900 dark:text-slate-100">
          {/* Mounted only while open: every opening starts with a new captcha. */}
          <CaptchaBody onOpenChange={onOpenChange} onSuccess={onSuccess} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function CaptchaBody({ onOpenChange, onSuccess }: Omit<ClickCaptchaProps, "open">) {
  const { t } = useLingui();
  const [image, setImage] = useState<CaptchaImage | null>(null);
  const [clicks, setClicks] = useState<Point[]>([]);
  const [phase, setPhase] = useState<Phase>("loading");
  const [wrongNotice, setWrongNotice] = useState(false);
  /**
   * Only the latest load or check may change the dialog (refresh pressed twice, a wrong try's
   * reload), and nothing may after the dialog closed.
   */
  const session = useRef({ ticket: 0, alive: true, timer: undefined as ReturnType<typeof setTimeout> | undefined });
  const current = (mine: number) => session.current.alive && mine === session.current.ticket;

  const show = useCallback((mine: number, data: CaptchaImage | null) => {
    if (!session.current.alive || mine !== session.current.ticket) return;
    setImage(data);
    setPhase(data ? "ready" : "loadFailed");
  }, []);

  const load = useCallback(() => {
    const mine = ++session.current.ticket;
    fetchCaptcha().then(
      (data) => show(mine, data),
      () => show(mine, null),
    );
  }, [show]);

  useEffect(() => {
    const s = session.current;
    s.alive = true;
    load();
    return () => {
      s.alive = false;
      clearTimeout(s.timer);
    };
  }, [load]);

  const reload = useCallback(() => {
    clearTimeout(session.current.timer);
    setClicks([]);
    setPhase("loading");
    load();
  }, [load]);

  async function check(captcha: CaptchaImage, points: Point[], width: number, height: number) {
    const info = formatClickInfo(toRendered(points, width, height), width, height);
    setPhase("checking");
    const mine = session.current.ticket;
    try {
      await request(
        { url: "/api/common/checkClickCaptcha", method: "post", data: { id: captcha.id, info, unset: false } },
        { showCodeMessage: false, cancelDuplicateRequest: false },
      );
      if (!current(mine)) return;
      setPhase("success");
      session.current.timer = setTimeout(() => {
        onSuccess({ captchaId: captcha.id, captchaInfo: info });
        onOpenChange(false);
      }, SUCCESS_DELAY_MS);
    } catch (error) {
      if (!current(mine)) return;
      // A business answer (wrong, expired...) says why; a network failure shows on the new load.
      if (!serverRefusal(error)) return reload();
      setWrongNotice(true);
      setPhase("wrong");
      session.current.timer = setTimeout(reload, WRONG_DELAY_MS);
    }
  }

  function onImageClick(event: MouseEvent<HTMLImageElement>) {
    if (!image || phase !== "ready") return;
    const rect = event.currentTarget.getBoundingClientRect();
    const next = [...clicks, clickFraction(event.clientX, event.clientY, rect)];
    setClicks(next);
    setWrongNotice(false);
    if (next.length >= image.text.length) void check(image, next, rect.width, rect.height);
  }

  const order = image?.text.join(" ") ?? "";
  const busy = phase === "loading" || phase === "checking";
  const showImage = image && phase !== "loading" && phase !== "loadFailed";

  return (
    <>
      <div className="mb-1 flex items-center justify-between gap-2">
        <Dialog.Title className="text-lg font-semibold">
          <Trans>Security check</Trans>
        </Dialog.Title>
        <div className="flex">
          <Button variant="ghost" size="icon" aria-label={t`Refresh`} title={t`Refresh`} disabled={busy || phase === "success"} onClick={reload}>
            <RefreshCw aria-hidden className="size-5" />
          </Button>
          <Dialog.Close className={buttonClass("ghost", "", "icon")} aria-label={t`Close`} title={t`Close`}>
            <X aria-hidden className="size-5" />
          </Dialog.Close>
        </div>
      </div>

      <Dialog.Description className="mb-2 min-h-6 text-base font-medium text-slate-800 dark:text-slate-200">
        {image ? t`Please click in order: ${order}` : t`Captcha image: click the characters in order`}
      </Dialog.Description>

      <div className="relative aspect-[7/4] w-full overflow-hidden rounded-md bg-slate-100 dark:bg-slate-800">
        {phase === "loadFailed" ? (
          <Button variant="bare" onClick={reload} className="flex size-full items-center justify-center gap-2 text-base font-medium text-primary hover:underline">
            <RefreshCw aria-hidden className="size-5" />
            <Trans>Loading failed, click to refresh</Trans>
          </Button>
        ) : showImage ? (
          <>
            <img
              src={image.base64}
              width={image.width}
              height={image.height}
              alt={t`Captcha image: click the characters in order`}
              draggable={false}
              onClick={onImageClick}
              className={`size-full select-none ${phase === "ready" ? "cursor-pointer" : "cursor-default"}`}
            />
            {clicks.map((p, i) => (
              <span
                key={i}
                aria-hidden
                data-testid="captcha-marker"
                style={{ left: `${p.x * 100}%`, top: `${p.y * 100}%` }}
                className={`pointer-events-none absolute flex size-7 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full border-2 border-white text-sm font-bold text-white shadow ${
                  phase === "wrong" ? "bg-red-600" : "bg-primary"
                }`}
              >
                {i + 1}
              </span>
            ))}
            {phase === "checking" && (
              <div className="absolute inset-0 flex items-center justify-center bg-white/40 dark:bg-black/30">
                <Spinner />
              </div>
            )}
          </>
        ) : (
          <div className="flex size-full items-center justify-center">
            <Spinner />
          </div>
        )}
      </div>

      <p
        role="status"
        aria-live="polite"
        className={`mt-2 min-h-6 text-sm font-medium ${phase === "success" ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-400"}`}
      >
        {phase === "success" ? t`Verification is successful` : wrongNotice ? t`Wrong area clicked, try again` : ""}
      </p>
    </>
  );
}
