import { useLingui } from "@lingui/react/macro";
import { textParts } from "../../../shared/exam/questionText.ts";
import { previewImages } from "../../ui/previewer/previewImages.tsx";
import { Button } from "../../ui/Button.tsx";

/**
 * A stem's or option's text with its images (`![](url)` tokens, shared/exam/questionText.ts):
 * each image is a button that opens the previewer on the images of this text.
 */
export function QuestionText({ text }: { text: string }) {
  const { t } = useLingui();
  const parts = textParts(text);
  const images = parts.flatMap((p) => (p.kind === "image" ? [p.url] : []));
  let index = -1;
  return (
    <>
      {parts.map((part, i) => {
        if (part.kind === "text") return <span key={i}>{part.text}</span>;
        index++;
        const at = index;
        const n = at + 1;
        return (
          <Button
            key={i}
            variant="bare"
            onClick={(e) => {
              // Inside an option's label: open the image, do not choose the option.
              e.preventDefault();
              e.stopPropagation();
              previewImages(images, at);
            }}
            className="my-1 inline-block rounded align-middle"
            aria-label={t`Open image ${n}`}
          >
            <img src={part.url} alt="" loading="lazy" className="max-h-40 max-w-full rounded border border-slate-200 dark:border-slate-700" />
          </Button>
        );
      })}
    </>
  );
}
