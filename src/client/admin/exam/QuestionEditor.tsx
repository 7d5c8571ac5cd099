import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { ArrowDown, ArrowUp, ImagePlus, Plus, X } from "lucide-react";
import { useRef, useState } from "react";
import { OPTION_KEYS, checkQuestion, stemBlankCount } from "../../../shared/admin/questions.ts";
import { imageToken, textParts } from "../../../shared/exam/questionText.ts";
import { isQuestionType, type ExamQuestion, type GivenAnswer, type QuestionOption, type QuestionType } from "../../../shared/exam/types.ts";
import { QuestionView, emptyAnswer } from "../../features/exam/QuestionView.tsx";
import { Button } from "../../ui/Button.tsx";
import { FileUploadButton } from "../../ui/FileUploadButton.tsx";
import { controlClass } from "../../ui/form/Field.tsx";
import { previewImages } from "../../ui/previewer/previewImages.tsx";
import type { CustomFieldProps } from "../crud/types.ts";
import { UploadStatus } from "../crud/fields/UploadProgress.tsx";
import { useUploader } from "../crud/fields/upload.ts";

/**
 * The question editor (custom fields of the question form, crud/types.ts): the stem with images,
 * the options (added, removed, moved up / down; the answer follows its option), the correct
 * answer per kind (a choice, T / F, blanks with accepted alternatives, keywords and a reference
 * answer), and a live preview drawn by the member's own QuestionView.
 */

const notImage = msg`Please choose an image`;

const typeOf = (values: Record<string, unknown>): QuestionType => (isQuestionType(values.type) ? values.type : "single");
const optionsOf = (value: unknown): QuestionOption[] =>
  Array.isArray(value) ? value.filter((o): o is QuestionOption => !!o && typeof o === "object" && typeof (o as QuestionOption).text === "string").map((o, i) => ({ key: OPTION_KEYS[i] ?? "H", text: o.text })) : [];
const listOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);
const shortOf = (value: unknown): { keywords: string[]; reference: string } => {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const v = value as { keywords?: unknown; reference?: unknown };
    return { keywords: listOf(v.keywords), reference: typeof v.reference === "string" ? v.reference : "" };
  }
  return { keywords: [], reference: "" };
};

/** A button that uploads an image and hands back its token (`![](url)`). */
function ImageButton({ onImage, label }: { onImage: (token: string) => void; label: string }) {
  const uploader = useUploader("question", (file) => (file.type && !file.type.startsWith("image/") ? notImage : null));
  return (
    <span className="inline-flex flex-col">
      <FileUploadButton
        variant="ghost"
        size="icon"
        aria-label={label}
        title={label}
        disabled={uploader.progress !== null}
        accept="image/*"
        inputTestId="question-image-input"
        onFiles={async ([file]) => {
          const done = await uploader.upload(file!);
          if (done) onImage(imageToken(done.url));
        }}
      >
        <ImagePlus aria-hidden className="size-4" />
      </FileUploadButton>
      <UploadStatus progress={uploader.progress} problem={uploader.problem} />
    </span>
  );
}

/** Thumbnails of the images inside a text; each opens the previewer. */
function Thumbnails({ text }: { text: string }) {
  const { t } = useLingui();
  const urls = textParts(text).flatMap((p) => (p.kind === "image" ? [p.url] : []));
  if (urls.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-2">
      {urls.map((url, i) => {
        const n = i + 1;
        return (
          <li key={`${url}-${i}`}>
            <Button variant="bare" onClick={() => previewImages(urls, i)} aria-label={t`Preview image ${n}`} className="size-16 overflow-hidden rounded border border-slate-300 dark:border-slate-600">
              <img src={url} alt="" className="size-full object-cover" />
            </Button>
          </li>
        );
      })}
    </ul>
  );
}

/** A fill-in answer with one blank per blank of the stem: empty ones added at the end, the last ones dropped. */
export function answerForBlanks(answer: unknown, blanks: number): string[] {
  const list = listOf(answer);
  return list.length >= blanks ? list.slice(0, blanks) : [...list, ...Array.from({ length: blanks - list.length }, () => "")];
}

/** The stem without its `index`-th blank ("____" run; image addresses are not blanks). */
export function withoutBlank(stem: string, index: number): string {
  let seen = 0;
  return textParts(stem)
    .map((p) =>
      p.kind === "image"
        ? imageToken(p.url)
        : p.text.replace(/_{2,}/g, (run) => (seen++ === index ? "" : run)),
    )
    .join("");
}

/**
 * The stem: text, an image button inserting at the cursor, thumbnails of its images. A fill-in
 * question's answer keeps one blank per "____" of the stem as blanks are typed or removed.
 */
export function StemEditor({ value, onChange, control, values, setValue }: CustomFieldProps) {
  const { t } = useLingui();
  const area = useRef<HTMLTextAreaElement>(null);
  const text = typeof value === "string" ? value : "";
  const change = (next: string) => {
    onChange(next);
    if (typeOf(values) !== "fill") return;
    const blanks = stemBlankCount(next);
    // No blank typed yet: the answer keeps what it has (a blank of the text is still to come).
    if (blanks > 0 && blanks !== listOf(values.answer).length) setValue("answer", answerForBlanks(values.answer, blanks));
  };
  const insert = (token: string) => {
    const at = area.current?.selectionStart ?? text.length;
    change(`${text.slice(0, at)}${token}${text.slice(at)}`);
  };
  return (
    <div className="space-y-2">
      <div className="flex items-start gap-1">
        <textarea {...control} ref={area} rows={4} value={text} onChange={(e) => change(e.target.value)} className={`${controlClass(control["aria-invalid"] ? "x" : undefined)} py-2`} />
        <ImageButton label={t`Insert an image into the question`} onImage={insert} />
      </div>
      {/* Only where it applies: on any other type the underscores would just be text. */}
      {typeOf(values) === "fill" && (
        <p className="text-xs text-slate-500 dark:text-slate-400">
          <Trans>A fill-in question marks each blank with ____ (four underscores).</Trans>
        </p>
      )}
      <Thumbnails text={text} />
    </div>
  );
}

/** Remaps a choice answer when options move: `order[i]` is the old index of the option now at i. */
function remapAnswer(type: QuestionType, answer: unknown, order: number[]): unknown {
  const newKey = (oldKey: string) => {
    const old = OPTION_KEYS.indexOf(oldKey as (typeof OPTION_KEYS)[number]);
    const at = order.indexOf(old);
    return at < 0 ? null : (OPTION_KEYS[at] as string);
  };
  if (type === "single") return typeof answer === "string" ? (newKey(answer) ?? "") : "";
  if (type === "multiple") return listOf(answer).map(newKey).filter((k): k is string => k !== null).sort();
  return answer;
}

/** The options of a choice question: text with images, moved up / down, removed, added (A..H). */
export function OptionsEditor({ value, onChange, values, setValue, control }: CustomFieldProps) {
  const { t } = useLingui();
  const options = optionsOf(value);
  const type = typeOf(values);
  const apply = (texts: string[], order: number[]) => {
    onChange(texts.map((text, i) => ({ key: OPTION_KEYS[i]!, text })));
    setValue("answer", remapAnswer(type, values.answer, order));
  };
  const texts = options.map((o) => o.text);
  const identity = options.map((_, i) => i);
  const move = (i: number, to: number) => {
    const order = [...identity];
    [order[i], order[to]] = [order[to]!, order[i]!];
    apply(
      order.map((k) => texts[k]!),
      order,
    );
  };
  return (
    <div className="space-y-2" role="group" aria-describedby={control["aria-describedby"]}>
      <ol className="space-y-2">
        {options.map((o, i) => {
          const key = o.key;
          return (
            <li key={i} className="space-y-1 rounded-md border border-slate-200 p-2 dark:border-slate-700">
              <div className="flex flex-wrap items-center gap-1">
                <span className="w-6 font-semibold" aria-hidden>
                  {key}
                </span>
                <input
                  id={i === 0 ? control.id : undefined}
                  aria-label={t`Option ${key}`}
                  value={o.text}
                  onChange={(e) => apply(texts.map((x, j) => (j === i ? e.target.value : x)), identity)}
                  className={`${controlClass()} min-w-0 flex-1`}
                />
                <ImageButton label={t`Insert an image into option ${key}`} onImage={(token) => apply(texts.map((x, j) => (j === i ? `${x}${token}` : x)), identity)} />
                <Button variant="ghost" size="icon" aria-label={t`Move option ${key} up`} disabled={i === 0} onClick={() => move(i, i - 1)}>
                  <ArrowUp aria-hidden className="size-4" />
                </Button>
                <Button variant="ghost" size="icon" aria-label={t`Move option ${key} down`} disabled={i === options.length - 1} onClick={() => move(i, i + 1)}>
                  <ArrowDown aria-hidden className="size-4" />
                </Button>
                <Button
                  variant="dangerGhost"
                  size="icon"
                  aria-label={t`Remove option ${key}`}
                  disabled={options.length <= 2}
                  onClick={() => {
                    const order = identity.filter((j) => j !== i);
                    apply(
                      order.map((k) => texts[k]!),
                      order,
                    );
                  }}
                >
                  <X aria-hidden className="size-4" />
                </Button>
              </div>
              <Thumbnails text={o.text} />
            </li>
          );
        })}
      </ol>
      <Button disabled={options.length >= OPTION_KEYS.length} onClick={() => apply([...texts, ""], identity)}>
        <Plus aria-hidden className="size-4" />
        <Trans>Add option</Trans>
      </Button>
    </div>
  );
}

/** A list of short texts (a blank's accepted answers, a short answer's keywords), each removable. */
function TextList({ items, onChange, label, addLabel }: { items: string[]; onChange: (items: string[]) => void; label: (n: number) => string; addLabel: string }) {
  const { t } = useLingui();
  return (
    <div className="flex flex-wrap items-center gap-2">
      {items.map((item, i) => {
        const name = label(i + 1);
        return (
        <span key={i} className="inline-flex items-center">
          <input aria-label={name} value={item} onChange={(e) => onChange(items.map((x, j) => (j === i ? e.target.value : x)))} className={`${controlClass()} w-40`} />
          <Button variant="dangerGhost" size="icon" aria-label={t`Remove ${name}`} disabled={items.length <= 1} onClick={() => onChange(items.filter((_, j) => j !== i))}>
            <X aria-hidden className="size-4" />
          </Button>
        </span>
        );
      })}
      <Button onClick={() => onChange([...items, ""])}>
        <Plus aria-hidden className="size-4" />
        {addLabel}
      </Button>
    </div>
  );
}

/** The correct answer, per kind. */
export function AnswerEditor({ value, onChange, values, control, setValue }: CustomFieldProps) {
  const { t } = useLingui();
  const type = typeOf(values);
  const options = optionsOf(values.options);
  if (type === "single" || type === "multiple") {
    const chosen = type === "single" ? [typeof value === "string" ? value : ""] : listOf(value);
    return (
      <div className="flex flex-wrap gap-x-4 gap-y-2" role={type === "single" ? "radiogroup" : "group"} aria-describedby={control["aria-describedby"]} aria-invalid={control["aria-invalid"]}>
        {options.map((o) => (
          <label key={o.key} className="inline-flex min-h-11 items-center gap-2">
            <input
              type={type === "single" ? "radio" : "checkbox"}
              name="question-answer"
              className="size-4 accent-primary"
              checked={chosen.includes(o.key)}
              onChange={(e) => onChange(type === "single" ? o.key : (e.target.checked ? [...chosen, o.key] : chosen.filter((k) => k !== o.key)).sort())}
            />
            {o.key}
          </label>
        ))}
      </div>
    );
  }
  if (type === "judge") {
    return (
      <div className="flex gap-4" role="radiogroup" aria-describedby={control["aria-describedby"]}>
        {(["T", "F"] as const).map((k) => (
          <label key={k} className="inline-flex min-h-11 items-center gap-2">
            <input type="radio" name="question-judge" className="size-4 accent-primary" checked={value === k} onChange={() => onChange(k)} />
            {k === "T" ? t`True` : t`False`}
          </label>
        ))}
      </div>
    );
  }
  if (type === "fill") {
    // One answer blank per blank of the text; adding or removing one here adds or removes it in the text too.
    const stem = typeof values.stem === "string" ? values.stem : "";
    const blanks = listOf(value);
    const list = blanks.length > 0 ? blanks : answerForBlanks([], Math.max(1, stemBlankCount(stem)));
    return (
      <div className="space-y-3" role="group" aria-describedby={control["aria-describedby"]}>
        {list.map((blank, i) => {
          const n = i + 1;
          const alternatives = blank.split("|");
          return (
            <fieldset key={i} className="space-y-1 rounded-md border border-slate-200 p-2 dark:border-slate-700">
              <legend className="px-1 text-sm font-medium">{t`Blank ${n}: accepted answers`}</legend>
              <TextList
                items={alternatives}
                onChange={(items) => onChange(list.map((b, j) => (j === i ? items.join("|") : b)))}
                label={(k) => t`Blank ${n}, answer ${k}`}
                addLabel={t`Add an accepted answer`}
              />
              <Button
                variant="dangerGhost"
                size="sm"
                disabled={list.length <= 1}
                onClick={() => {
                  onChange(list.filter((_, j) => j !== i));
                  if (i < stemBlankCount(stem)) setValue("stem", withoutBlank(stem, i));
                }}
              >
                <Trans>Remove blank {n}</Trans>
              </Button>
            </fieldset>
          );
        })}
        <Button
          onClick={() => {
            onChange([...list, ""]);
            if (stemBlankCount(stem) <= list.length) setValue("stem", `${stem}____`);
          }}
        >
          <Plus aria-hidden className="size-4" />
          <Trans>Add blank</Trans>
        </Button>
      </div>
    );
  }
  const short = shortOf(value);
  const keywords = short.keywords.length > 0 ? short.keywords : [""];
  return (
    <div className="space-y-2" role="group" aria-describedby={control["aria-describedby"]}>
      <p className="text-sm font-medium">
        <Trans>Keywords (the score is shared among those found in the member's answer)</Trans>
      </p>
      <TextList items={keywords} onChange={(items) => onChange({ ...short, keywords: items })} label={(k) => t`Keyword ${k}`} addLabel={t`Add keyword`} />
      <label className="block space-y-1">
        <span className="text-sm font-medium">
          <Trans>Reference answer (shown to markers and in the review)</Trans>
        </span>
        <textarea rows={3} value={short.reference} onChange={(e) => onChange({ ...short, reference: e.target.value })} className={`${controlClass()} py-2`} />
      </label>
    </div>
  );
}

/** The question as the member will see it, answerable, and what still keeps it from being saved. */
export function QuestionPreview({ values }: CustomFieldProps) {
  const { i18n } = useLingui();
  const type = typeOf(values);
  const options = type === "single" || type === "multiple" ? optionsOf(values.options) : [];
  const question: ExamQuestion = {
    id: 0,
    type,
    classifyId: 0,
    stem: typeof values.stem === "string" ? values.stem : "",
    options,
    answer: values.answer as ExamQuestion["answer"],
    score: Number(values.score) || 0,
    difficulty: 1,
  };
  const [given, setGiven] = useState<GivenAnswer | null>(null);
  const problem = checkQuestion({ type, stem: question.stem, options, answer: values.answer });
  return (
    <div className="space-y-3 rounded-lg border border-dashed border-slate-300 p-3 dark:border-slate-600" data-testid="question-preview">
      <QuestionView key={`${type}-${options.length}`} question={question} value={given ?? emptyAnswer(question)} onChange={setGiven} disabled={false} />
      {problem && (
        <p className="text-sm text-amber-700 dark:text-amber-300" role="status">
          {i18n._(problem.message)}
        </p>
      )}
    </div>
  );
}
