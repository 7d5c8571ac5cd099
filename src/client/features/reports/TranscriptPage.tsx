import { Trans } from "@lingui/react/macro";
import { TranscriptView, ownTranscript } from "./TranscriptView.tsx";

/** Member center `learning/transcript` (成绩单): the member's own transcript. */
export default function TranscriptPage() {
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">
        <Trans>Transcript</Trans>
      </h1>
      <TranscriptView source={ownTranscript} />
    </div>
  );
}
