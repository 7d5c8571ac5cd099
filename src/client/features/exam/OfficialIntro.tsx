import { useState } from "react";
import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { PlayCircle } from "lucide-react";
import { useNavigate } from "react-router-dom";
import type { Catalog } from "../../../shared/exam/catalog.ts";
import { examQueries } from "./api.ts";
import { ExamIntroDialog } from "./ExamIntro.tsx";
import { startOfficial } from "./official.ts";
import { Button } from "../../ui/Button.tsx";

type Room = Catalog["rooms"][number];

/** "N attempts left" of a room (an open attempt counts as used). */
export function AttemptsLeft({ room }: { room: Room }) {
  const { t } = useLingui();
  const left = room.attemptsLeft;
  return <span>{t`${plural(left, { one: "# attempt left", other: "# attempts left" })}`}</span>;
}

/**
 * "Enter the exam" on an official exam room: an introduction first (duration, questions, points,
 * pass mark, attempts left, face check), and the attempt starts only on "Start". The catalogue
 * is refetched once an attempt starts, so the attempts left count down.
 */
export function EnterOfficialButton({ room, disabled }: { room: Room; disabled?: boolean }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  // The member's overrides are included in the time and the attempts (a catalogue cached before them has neither).
  const minutes = Math.round(room.duration / 60);
  const extraMinutes = room.extraMinutes ?? 0;
  const extraAttempts = room.extraAttempts ?? 0;
  const { attemptsLeft, attemptsAllowed } = room;
  const duration = t`${plural(minutes, { one: "# minute", other: "# minutes" })}`;

  async function start() {
    setBusy(true);
    try {
      const attempt = await startOfficial(room.id);
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: examQueries.catalog().queryKey });
      void navigate(`/exam/my_test_detail?official=${attempt.attempt.uuid}`);
    } catch {
      // The request layer says why (not open yet, ended, no attempts left, offline...).
    } finally {
      setBusy(false);
    }
  }

  return (
    <ExamIntroDialog
      open={open}
      onOpenChange={setOpen}
      title={room.title}
      busy={busy}
      onStart={() => void start()}
      trigger={
        <Button variant="primary" disabled={disabled}>
          <PlayCircle aria-hidden className="size-5" />
          <Trans>Enter the exam</Trans>
        </Button>
      }
      figures={[
        { label: t`Duration`, value: extraMinutes > 0 ? t`${duration}, includes ${plural(extraMinutes, { one: "# extra minute", other: "# extra minutes" })}` : duration },
        { label: t`Questions`, value: String(room.questionCount) },
        { label: t`Total points`, value: String(room.totalScore) },
        { label: t`Pass score`, value: String(room.passScore) },
        {
          label: t`Attempts left`,
          value:
            extraAttempts > 0
              ? t`${attemptsLeft} of ${attemptsAllowed}, includes ${plural(extraAttempts, { one: "# extra attempt", other: "# extra attempts" })}`
              : t`${attemptsLeft} of ${attemptsAllowed}`,
        },
        { label: t`Face check`, value: room.faceCheck ? t({ message: "Required", context: "face check" }) : t`Not required` },
      ]}
    />
  );
}
