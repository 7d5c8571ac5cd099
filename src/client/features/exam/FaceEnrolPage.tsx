import { useEffect, useState, type ChangeEvent } from "react";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Camera, CircleCheck, ImageUp, LoaderCircle } from "lucide-react";
import type { DeviceProblem } from "../../../shared/exam/face.ts";
import { request } from "../../api/index.ts";
import { Button, buttonClass } from "../../ui/Button.tsx";
import { frameOfFile, jpegOf } from "./faceCamera.ts";
import { lookAt, preloadDetector } from "./faceDetector.ts";
import { VERDICT_MESSAGES } from "./faceMessages.ts";
import { useCamera } from "./useFaceCamera.ts";
import { PageTitle } from "../../ui/PageTitle.tsx";

/**
 * The camera's problems as this screen says them: it is the member center, not an exam, and a
 * photo from a file does instead.
 */
const CAMERA_PROBLEMS: Record<DeviceProblem, MessageDescriptor> = {
  no_camera: msg`No camera was found on this device: choose a photo of your face instead`,
  camera_refused: msg`The camera was refused: allow this site to use it in the browser's site settings, or choose a photo of your face instead`,
  camera_failed: msg`The camera could not be started: try it again, or choose a photo of your face instead`,
};

type Outcome = { kind: "none" } | { kind: "busy" } | { kind: "saved" } | { kind: "problem"; text: string };

/**
 * `/user/account/face`: the member's reference photo for face checks, taken with the camera. The
 * device looks first (one face, with `@vladmandic/human`, loaded only on this screen) to spare a
 * useless upload; the server checks the photo again, computes the face descriptor it will compare
 * snapshots with, and keeps the photo privately.
 */
export default function FaceEnrolPage() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const { videoRef, camera, grab, retry } = useCamera();
  const [outcome, setOutcome] = useState<Outcome>({ kind: "none" });
  const [preview, setPreview] = useState<string | null>(null);
  const status = useQuery({
    queryKey: ["account", "face"],
    queryFn: async ({ signal }) => (await request<{ enrolled: boolean }>({ url: "/api/user/face", method: "get", signal })).data,
  });

  useEffect(() => {
    void preloadDetector().catch(() => undefined);
  }, []);

  async function take() {
    const frame = grab();
    if (frame) await save(frame);
  }

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // The same file chosen again is a change too.
    event.target.value = "";
    if (!file) return;
    setOutcome({ kind: "busy" });
    const frame = file.type.startsWith("image/") ? await frameOfFile(file) : null;
    if (!frame) {
      setOutcome({ kind: "problem", text: t`This file could not be read as a picture: choose a photo (JPEG or PNG)` });
      return;
    }
    await save(frame);
  }

  async function save(frame: HTMLCanvasElement) {
    setOutcome({ kind: "busy" });
    const look = await lookAt(frame, 20_000);
    const image = jpegOf(frame);
    setPreview(image);
    if (look.verdict === "no_face" || look.verdict === "many_faces") {
      setOutcome({ kind: "problem", text: i18n._(VERDICT_MESSAGES[look.verdict]) });
      return;
    }
    try {
      await request({ url: "/api/user/face", method: "post", data: { image }, timeout: 60_000 }, { showCodeMessage: false });
      setOutcome({ kind: "saved" });
      await queryClient.invalidateQueries({ queryKey: ["account", "face"] });
    } catch (error) {
      const text = (error as { msg?: string }).msg || t`The photo could not be saved: try again`;
      setOutcome({ kind: "problem", text });
    }
  }

  const enrolled = status.data?.enrolled ?? false;
  return (
    <section className="mx-auto max-w-md space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <PageTitle icon={Camera} iconClassName="size-5">
        <Trans>Face photo</Trans>
      </PageTitle>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        <Trans>Exams with face checks compare snapshots with this photo. Face the camera alone, in good light, without a hat or sunglasses.</Trans>
      </p>
      <p role="status" className="flex items-center gap-2 text-sm">
        {enrolled ? (
          <>
            <CircleCheck aria-hidden className="size-4 text-green-700" />
            <Trans>A reference photo is on file. Taking a new one replaces it.</Trans>
          </>
        ) : status.isPending ? null : (
          <Trans>No reference photo yet.</Trans>
        )}
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <video ref={videoRef} muted playsInline aria-label={t`Camera preview`} className="aspect-[4/3] w-full rounded-lg bg-slate-900 object-cover" />
        {preview ? (
          <img src={preview} alt={t`The photo taken`} className="aspect-[4/3] w-full rounded-lg object-cover" />
        ) : (
          <div className="flex aspect-[4/3] w-full items-center justify-center rounded-lg border border-dashed text-center text-xs text-slate-500">
            <Trans>The photo taken appears here</Trans>
          </div>
        )}
      </div>
      {camera.state === "problem" && <p role="alert" className="text-sm text-red-700 dark:text-red-300">{i18n._(CAMERA_PROBLEMS[camera.problem])}</p>}
      {outcome.kind === "problem" && <p role="alert" className="text-sm text-red-700 dark:text-red-300">{outcome.text}</p>}
      {outcome.kind === "saved" && (
        <p role="status" className="text-sm text-green-800 dark:text-green-300">
          <Trans>Your reference photo is saved.</Trans>
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {camera.state === "problem" ? (
          <Button onClick={retry}>{t`Try the camera again`}</Button>
        ) : (
          <Button variant="primary" disabled={camera.state !== "ready" || outcome.kind === "busy"} onClick={() => void take()}>
            {outcome.kind === "busy" && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
            {t`Take photo`}
          </Button>
        )}
        {/* Without a camera (none, refused, broken) a photo of the member's face from a file
            does: the server checks it as it checks the camera's. Always offered: a member may
            have a better photo than the camera takes. */}
        <label className={`${buttonClass(camera.state === "problem" ? "primary" : "secondary")} cursor-pointer has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-primary`}>
          <ImageUp aria-hidden className="size-4" />
          {t`Choose a photo`}
          <input type="file" accept="image/*" className="sr-only" disabled={outcome.kind === "busy"} onChange={(e) => void choose(e)} />
        </label>
      </div>
    </section>
  );
}
