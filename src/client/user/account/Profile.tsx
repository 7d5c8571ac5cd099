
import { useEffect, useId, useRef, useState } from "react";
import { zodResolver } from "@hookform/resolvers/zod";
import type { MessageDescriptor } from "@lingui/core";
import { msg, plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ImageUp, LoaderCircle } from "lucide-react";
import { useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { AVATAR_ACCEPT, AVATAR_TOPIC, avatarRules } from "../../../shared/avatar.ts";
import { checkUpload, parseSize, type UploadConfig } from "../../../shared/upload.ts";
import { fullUrl } from "../../../shared/url.ts";
import { validateRequired } from "../../../shared/validation.ts";
import { request } from "../../api/index.ts";
import { sendUpload } from "../../api/upload.ts";
import { useSiteConfig } from "../../stores/siteConfig.ts";
import { useUserInfo, type UserInfo } from "../../stores/userInfo.ts";
import { Field } from "../../ui/form/Field.tsx";
import { useDirtyForm } from "../../ui/discardGuard.tsx";
import type { Translate } from "../../ui/form/rules.ts";
import { Spinner } from "../../ui/Spinner.tsx";
import { ChangeBindDialog } from "./ChangeBindDialog.tsx";
import { serverMessage } from "./amounts.ts";
import { Button } from "../../ui/Button.tsx";
import { FileUploadButton } from "../../ui/FileUploadButton.tsx";
import { AvatarCircle } from "../../ui/AvatarCircle.tsx";
import { LoadFailed } from "../../ui/LoadFailed.tsx";
import { Fact } from "../../ui/Fact.tsx";

export const NICKNAME_MAX = 50;
export const MOTTO_MAX = 250;

export type Gender = 0 | 1 | 2;

/** What `POST /api/account/profile` takes. */
export interface ProfileValues {
  avatar: string;
  nickname: string;
  gender: Gender;
  /** 'YYYY-MM-DD' or ''. */
  birthday: string;
  motto: string;
}

/** `GET /api/account/profile`. */
export interface AccountProfile {
  userInfo: Partial<UserInfo> & Pick<UserInfo, "id">;
  accountVerificationType: ("email" | "mobile")[];
}

/** "At most {max} characters". */
const tooLong = (max: number): MessageDescriptor => msg`${plural(max, { one: "At most # character", other: "At most # characters" })}`;

/** Characters as the server counts them (UTF-16 code units: an emoji may count 2). */
const length = (text: string) => text.length;

function isValidDate(value: string, today: Date): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(year, month - 1, day);
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day || year < 1900) return false;
  const end = new Date(today.getFullYear(), today.getMonth(), today.getDate());
  return date.getTime() <= end.getTime();
}

/** Field checks before saving: nickname required and at most 50 characters, a real past birthday (up to `today()`), motto at most 250. */
export function profileSchema(translate: Translate, today: () => Date = () => new Date()) {
  return z.object({
    avatar: z.string(),
    nickname: z.string().superRefine((value, ctx) => {
      const nickname = value.trim();
      const problem = validateRequired(nickname) ?? (length(nickname) > NICKNAME_MAX ? tooLong(NICKNAME_MAX) : null);
      if (problem) ctx.addIssue({ code: "custom", message: translate(problem) });
    }),
    gender: z.union([z.literal(0), z.literal(1), z.literal(2)]),
    birthday: z.string().refine((value) => !value || isValidDate(value, today()), { error: () => translate(msg`Please enter a valid date`) }),
    motto: z.string().refine((value) => length(value) <= MOTTO_MAX, { error: () => translate(tooLong(MOTTO_MAX)) }),
  });
}

/** The site's upload settings as checkUpload wants them (an unreadable size leaves the check to the server). */
function uploadConfig(upload: { maxsize: number | string; mimetype: string }): UploadConfig {
  let maxsize = Number.POSITIVE_INFINITY;
  try {
    maxsize = parseSize(upload.maxsize);
  } catch {
    // Misconfigured size: the server still enforces its own limit.
  }
  return { maxsize, mimetype: upload.mimetype };
}

/**
 * The client-side checks of a chosen avatar: SPEC §5 upload rules, then "is an image", then the
 * avatar's own limits (src/shared/avatar.ts: the image types, the size), as the server checks.
 */
export function checkAvatarFile(file: { name: string; size: number; type: string }, upload: { maxsize: number | string; mimetype: string }): MessageDescriptor | null {
  const site = uploadConfig(upload);
  const info = { name: file.name, size: file.size, type: file.type };
  const problem = checkUpload(info, site);
  if (problem) return problem;
  if (!file.type.startsWith("image/")) return msg`Please choose an image file`;
  return checkUpload(info, avatarRules(site));
}

interface UploadedFile {
  url: string;
  name: string;
  size: number;
  mimetype: string;
  width: number;
  height: number;
  id: number;
}

const GENDERS: { value: Gender; label: MessageDescriptor }[] = [
  { value: 0, label: msg`Unknown` },
  { value: 1, label: msg`Male` },
  { value: 2, label: msg`Female` },
];

const inputBase =
  "block w-full rounded-md border bg-white px-3 text-base outline-none focus-visible:ring-2 focus-visible:ring-primary dark:bg-slate-800";

function todayText(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** The profile form, filled from `profile` once (the screen remounts it for another member). */
export function ProfileForm({ profile }: { profile: AccountProfile }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const ids = useId();
  const info = profile.userInfo;
  const [schema] = useState(() => profileSchema((m) => i18n._(m)));
  // Errors show after the first save attempt and then follow the input (react-hook-form's
  // re-validation on change); the first field with one gets the focus.
  const form = useForm<ProfileValues>({
    defaultValues: {
      avatar: info.avatar ?? "",
      nickname: info.nickname ?? "",
      gender: info.gender === 1 || info.gender === 2 ? info.gender : 0,
      birthday: info.birthday ?? "",
      motto: info.motto ?? "",
    },
    resolver: zodResolver(schema),
  });
  const values = useWatch({ control: form.control }) as ProfileValues;
  useDirtyForm(form.formState.isDirty);
  const [saving, setSaving] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [avatarError, setAvatarError] = useState<MessageDescriptor | null>(null);
  const [binding, setBinding] = useState<"email" | "mobile" | null>(null);
  const previewRef = useRef<string | null>(null);
  const upload = useSiteConfig((s) => s.upload);
  const cdnUrl = useSiteConfig((s) => s.cdnUrl);
  const apiUrl = useSiteConfig((s) => s.apiUrl);

  const errors = form.formState.errors;
  const uploading = progress !== null;

  // Free the preview's object URL when the form goes away.
  useEffect(() => () => {
    if (previewRef.current) URL.revokeObjectURL(previewRef.current);
  }, []);

  function showPreview(url: string | null) {
    if (previewRef.current) URL.revokeObjectURL(previewRef.current);
    previewRef.current = url;
    setPreview(url);
  }

  async function chooseAvatar(files: File[]) {
    const file = files[0];
    if (!file) return;
    const problem = checkAvatarFile(file, upload);
    setAvatarError(problem);
    if (problem) return;

    showPreview(URL.createObjectURL(file));
    setProgress(0);
    const body = new FormData();
    body.append("topic", AVATAR_TOPIC);
    body.append("file", file);
    try {
      const res = await sendUpload<{ file: UploadedFile }>("/api/ajax/upload", body, setProgress);
      form.setValue("avatar", res.file.url);
    } catch {
      // The request layer has shown why; the previous avatar stays.
    } finally {
      showPreview(null);
      setProgress(null);
    }
  }

  const submit = form.handleSubmit(async (values) => {
    setSaving(true);
    try {
      const body: ProfileValues = { ...values, nickname: values.nickname.trim() };
      const res = await request<{ userInfo: Partial<UserInfo> }>({ url: "/api/account/profile", method: "post", data: body }, { showSuccessMessage: true });
      const { token: _t, refresh_token: _r, ...saved } = res.data.userInfo ?? {};
      useUserInfo.getState().dataFill({ ...body, ...saved });
      queryClient.setQueryData<AccountProfile>(["account", "profile"], (old) => (old ? { ...old, userInfo: { ...old.userInfo, ...body, ...saved } } : old));
      // What was saved is the form's new starting point: nothing left unsaved.
      form.reset(body);
    } catch {
      // The request layer has shown the server's message.
    } finally {
      setSaving(false);
    }
  });

  const avatarSrc = preview ?? fullUrl(values.avatar, cdnUrl, apiUrl);
  const mottoError = errors.motto?.message;
  const genderName = `${ids}-gender`;
  const verifyNote = t`Email and mobile number can be changed only after verification.`;
  /** The email or mobile number the account is bound to, and "Change" where the site verifies that kind. */
  const boundRow = (kind: "email" | "mobile", label: string, value: string | null | undefined, className: string) => (
    <Fact label={label} className={className}>
      {value || t`Not set`}
      {profile.accountVerificationType.includes(kind) && (
        <Button variant="bare" onClick={() => setBinding(kind)} className="min-h-9 rounded px-2 text-primary hover:underline">
          <Trans>Change</Trans>
        </Button>
      )}
    </Fact>
  );

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-5">
      <h1 className="text-xl font-semibold">
        <Trans>Profile</Trans>
      </h1>

      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <div className="relative size-24 shrink-0">
          <AvatarCircle src={avatarSrc} alt={t`Avatar`} size="lg" />
          {uploading && (
            <span className="absolute inset-0 flex items-center justify-center rounded-full bg-black/50">
              <LoaderCircle aria-hidden className="size-8 animate-spin text-white" />
            </span>
          )}
        </div>
        <div className="space-y-2">
          <FileUploadButton
            accept={AVATAR_ACCEPT}
            disabled={uploading}
            onFiles={(files) => void chooseAvatar(files)}
            inputLabel={t`Change avatar`}
            aria-invalid={avatarError ? true : undefined}
            aria-describedby={avatarError ? `${ids}-avatar-error` : undefined}
          >
            <ImageUp aria-hidden className="size-4" />
            <Trans>Change avatar</Trans>
          </FileUploadButton>
          {uploading && (
            <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
              <Trans>Uploading… {progress}%</Trans>
            </p>
          )}
          {avatarError && (
            <p id={`${ids}-avatar-error`} role="alert" className="text-sm text-red-700 dark:text-red-400">
              {i18n._(avatarError)}
            </p>
          )}
        </div>
      </div>

      <Field label={t`Nickname`} autoComplete="nickname" error={errors.nickname?.message} {...form.register("nickname")} />

      <fieldset className="space-y-1">
        <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">
          <Trans>Gender</Trans>
        </legend>
        <div className="flex flex-wrap gap-x-4">
          {GENDERS.map((g) => (
            <label key={g.value} className="flex min-h-11 cursor-pointer items-center gap-2 text-base">
              <input type="radio" name={genderName} value={g.value} checked={values.gender === g.value} onChange={() => form.setValue("gender", g.value)} className="size-5 accent-primary" />
              {i18n._(g.label)}
            </label>
          ))}
        </div>
      </fieldset>

      <Field label={t`Birthday`} type="date" max={todayText()} error={errors.birthday?.message} {...form.register("birthday")} />

      <div className="space-y-1">
        <label htmlFor={`${ids}-motto`} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
          <Trans>Motto</Trans>
        </label>
        <textarea
          id={`${ids}-motto`}
          rows={3}
          aria-invalid={mottoError ? true : undefined}
          aria-describedby={`${ids}-motto-count${mottoError ? ` ${ids}-motto-error` : ""}`}
          {...form.register("motto")}
          className={`${inputBase} py-2 ${mottoError ? "border-red-500" : "border-slate-300 dark:border-slate-600"}`}
        />
        <p id={`${ids}-motto-count`} className="text-right text-xs text-slate-600 dark:text-slate-300">
          {length(values.motto)}/{MOTTO_MAX}
        </p>
        {mottoError && (
          <p id={`${ids}-motto-error`} className="text-sm text-red-700 dark:text-red-400">
            {mottoError}
          </p>
        )}
      </div>

      <div className="space-y-2 rounded-lg bg-slate-50 p-4 dark:bg-slate-800/60">
        <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
          <Fact label={<Trans>Username</Trans>} className="break-all">
            {info.username}
          </Fact>
          {boundRow("email", t`Email`, info.email, "flex flex-wrap items-center gap-2 break-all")}
          {boundRow("mobile", t`Mobile number`, info.mobile, "flex flex-wrap items-center gap-2")}
        </dl>
        <p className="text-xs text-slate-600 dark:text-slate-300">{verifyNote}</p>
        {binding && (
          <ChangeBindDialog
            type={binding}
            current={info[binding] ?? ""}
            open
            onOpenChange={(open) => !open && setBinding(null)}
            onChanged={() => void queryClient.invalidateQueries({ queryKey: ["account", "profile"] })}
          />
        )}
      </div>

      <Button
        variant="primary"
        type="submit"
        disabled={saving || uploading}
        className="w-full px-6 sm:w-auto"
      >
        {saving && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
        <Trans>Save</Trans>
      </Button>
    </form>
  );
}

/** `/user/account/profile`: avatar, nickname, gender, birthday and motto; email and mobile read-only. */
export default function Profile() {
  const { t } = useLingui();
  const query = useQuery({
    queryKey: ["account", "profile"],
    queryFn: async ({ signal }) => (await request<AccountProfile>({ url: "/api/account/profile", method: "get", signal })).data,
  });
  if (query.isPending) return <Spinner className="mx-auto my-16 size-8" />;
  if (query.isError) return <LoadFailed message={t`The profile could not be loaded.`} detail={serverMessage(query.error)} onRetry={() => void query.refetch()} />;
  return (
    <section className="mx-auto max-w-xl rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <ProfileForm key={query.data.userInfo.id} profile={query.data} />
    </section>
  );
}
