import { TranscriptView, memberTranscript } from "../../features/reports/TranscriptView.tsx";
import type { CrudRow } from "../crud/types.ts";

/** The members list's row action "Transcript": the member's transcript as staff see it. */
export function TranscriptDialog({ row }: { row: CrudRow; onDone: () => void }) {
  return <TranscriptView source={memberTranscript(Number(row.id))} />;
}
