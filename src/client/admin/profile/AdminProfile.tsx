import { useState } from "react";
import { zodResolver } from "@hookform/resolvers/zod";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ImageUp } from "lucide-react";
import { useForm, useWatch } from "react-hook-form";
import { Navigate, useLocation, useNavigate } from "react-router-dom";
import { adminOwnProfile, type AdminProfileRow } from "../../../shared/admin/profile.ts";
import { AVATAR_ACCEPT, AVATAR_MAX_BYTES, AVATAR_TOPIC, avatarRules } from "../../../shared/avatar.ts";
import { checkUpload } from "../../../shared/upload.ts";
import { fullUrl } from "../../../shared/url.ts";
import { request, serverRefusal } from "../../api/index.ts";
import { loadingPath, targetFromLocation } from "../../routing/routeState.ts";
import { useAdminInfo } from "../../stores/adminInfo.ts";
import { useNavTabs } from "../../stores/navTabs.ts";
import { useSiteConfig } from "../../stores/siteConfig.ts";
import { FileUploadButton } from "../../ui/FileUploadButton.tsx";
import { controlClass, Field } from "../../ui/form/Field.tsx";
import { ControlledField } from "../../ui/form/ControlledField.tsx";
import { changePasswordSchema, type ChangePasswordValues } from "../../ui/form/rules.ts";
import { sentSchemaResolver } from "../../ui/form/sentSchemaResolver.ts";
import { FormAlert, FormFooter } from "../../ui/FormFooter.tsx";
import { LoadRetry } from "../../ui/LoadRetry.tsx";
import { PageSpinner } from "../../ui/PageSpinner.tsx";
import { fieldErrorsOf } from "../crud/api.ts";
import { UploadStatus } from "../crud/fields/UploadProgress.tsx";
import { useUploader, useUploadRules } from "../crud/fields/upload.ts";
import { AvatarCircle } from "../../ui/AvatarCircle.tsx";
import { Fact } from "../../ui/Fact.tsx";
import { PageTitle } from "../../ui/PageTitle.tsx";

/** `GET /admin/account/profile`. */
export type OwnProfile = AdminProfileRow;

const KEY = ["admin", "account", "profile"] as const;
const notImage = msg`Please choose an image`;
const AVATAR_MB = AVATAR_MAX_BYTES / 1024 / 1024;

/** The profile form's values as typed (email and mobile as text; the shared schema makes empty text "none"). */
type ProfileValues = { nickname: string; email: string; mobile: string; avatar: string; motto: string };

const cardClass = "space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900";

/**
 * Nickname, email, mobile, avatar and signature, checked with the schema the server runs
 * (src/shared/admin/profile.ts). The avatar is uploaded as soon as it is chosen and shown at
 * once; it is kept with the rest on Save.
 */
export function OwnProfileForm({ profile }: { profile: OwnProfile }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const cdnUrl = useSiteConfig((s) => s.cdnUrl);
  const apiUrl = useSiteConfig((s) => s.apiUrl);
  const rules = useUploadRules();
  // Checked before sending, as the server checks again: an image, within the avatar's limits.
  const uploader = useUploader(AVATAR_TOPIC, (file) => (file.type && !file.type.startsWith("image/") ? notImage : checkUpload({ name: file.name, size: file.size, type: file.type }, avatarRules(rules))));
  const [resolver] = useState(() => sentSchemaResolver<ProfileValues>(adminOwnProfile, (values) => values));
  const form = useForm<ProfileValues>({
    defaultValues: { nickname: profile.nickname, email: profile.email ?? "", mobile: profile.mobile ?? "", avatar: profile.avatar, motto: profile.motto },
    resolver,
  });
  const [formError, setFormError] = useState<string | null>(null);
  const avatar = useWatch({ control: form.control, name: "avatar" });
  const errors = form.formState.errors;

  async function chooseAvatar(files: File[]) {
    const done = files[0] ? await uploader.upload(files[0]) : null;
    if (done) form.setValue("avatar", done.url, { shouldDirty: true, shouldValidate: true });
  }

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const res = await request<{ profile: OwnProfile }>({ url: "/admin/account/profile", method: "post", data: values }, { showSuccessMessage: true, showCodeMessage: false });
      const saved = res.data.profile;
      // The header's name and picture follow at once.
      useAdminInfo.getState().dataFill({ nickname: saved.nickname, avatar: saved.avatar });
      queryClient.setQueryData(KEY, saved);
      form.reset({ nickname: saved.nickname, email: saved.email ?? "", mobile: saved.mobile ?? "", avatar: saved.avatar, motto: saved.motto });
    } catch (error) {
      const refusal = serverRefusal(error);
      if (!refusal) return;
      const byField = Object.entries(fieldErrorsOf(refusal.data) ?? {}).filter(([name]) => name in values);
      for (const [name, message] of byField) form.setError(name as keyof ProfileValues, { type: "server", message }, { shouldFocus: true });
      if (byField.length === 0) setFormError(refusal.msg);
    }
  });

  const avatarSrc = avatar ? fullUrl(avatar, cdnUrl, apiUrl) : "";
  return (
    <form noValidate onSubmit={(e) => void submit(e)} className={cardClass} aria-labelledby="own-profile-title">
      <h2 id="own-profile-title" className="text-lg font-semibold">
        <Trans>Profile</Trans>
      </h2>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <AvatarCircle src={avatarSrc} alt={t`Avatar`} size="lg" />
        <div className="space-y-2">
          <FileUploadButton
            accept={AVATAR_ACCEPT}
            disabled={uploader.progress !== null}
            onFiles={(files) => void chooseAvatar(files)}
            inputLabel={t`Upload avatar`}
          >
            <ImageUp aria-hidden className="size-4" />
            <Trans>Upload avatar</Trans>
          </FileUploadButton>
          <p className="text-xs text-slate-600 dark:text-slate-300">
            <Trans>PNG, JPEG, GIF or WebP, at most {AVATAR_MB} MB</Trans>
          </p>
          <UploadStatus progress={uploader.progress} problem={uploader.problem} />
          {errors.avatar?.message && (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {errors.avatar.message}
            </p>
          )}
        </div>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <Fact label={<Trans>Username</Trans>} className="break-all">
          {profile.username}
        </Fact>
      </dl>
      <Field label={t`Nickname`} autoComplete="nickname" error={errors.nickname?.message} {...form.register("nickname")} />
      <Field label={t`Email`} type="email" autoComplete="email" error={errors.email?.message} {...form.register("email")} />
      <Field label={t`Mobile`} type="tel" inputMode="numeric" autoComplete="tel" error={errors.mobile?.message} {...form.register("mobile")} />
      <ControlledField form={form} name="motto" label={t`Signature`}>
        {(control, f, error) => (
          <textarea {...control} rows={3} name={f.name} ref={f.ref} value={f.value} onChange={f.onChange} onBlur={f.onBlur} className={`${controlClass(error)} py-2`} />
        )}
      </ControlledField>
      <FormAlert text={formError} />
      <FormFooter busy={form.formState.isSubmitting || uploader.progress !== null} />
    </form>
  );
}

/**
 * The admin's own password. On success the server has ended every session of the admin (as a
 * member's change does): the stored tokens go and the login page opens, where the new password
 * is used.
 */
export function OwnPasswordForm({ username }: { username: string }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const [schema] = useState(() => changePasswordSchema((m) => i18n._(m)));
  const form = useForm<ChangePasswordValues>({ defaultValues: { oldPassword: "", newPassword: "", confirmPassword: "" }, resolver: zodResolver(schema) });
  const [formError, setFormError] = useState<string | null>(null);
  const errors = form.formState.errors;

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await request(
        { url: "/admin/account/changePassword", method: "post", data: { oldPassword: values.oldPassword, newPassword: values.newPassword } },
        { showSuccessMessage: true, showCodeMessage: false },
      );
    } catch (error) {
      // A wrong old password, a refused new one: said here, beside the form.
      const refusal = serverRefusal(error);
      if (refusal) setFormError(refusal.msg);
      return;
    }
    // The tokens go first, so nothing is sent with them again and the login page stays open;
    // the back office's menus once it has left the screen.
    useAdminInfo.getState().clear();
    await navigate("/admin/login", { replace: true });
    useNavTabs.getState().reset();
  });

  const passwordField = (name: keyof ChangePasswordValues, label: string, autoComplete: "current-password" | "new-password") => (
    <Field label={label} type="password" autoComplete={autoComplete} error={errors[name]?.message} {...form.register(name, name === "newPassword" ? { deps: ["confirmPassword"] } : {})} />
  );
  return (
    <form noValidate onSubmit={(e) => void submit(e)} className={cardClass} aria-labelledby="own-password-title">
      <h2 id="own-password-title" className="text-lg font-semibold">
        <Trans>Change password</Trans>
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        <Trans>After the change you will be logged out everywhere and log in again with the new password.</Trans>
      </p>
      {/* Lets password managers tie the new password to the account. */}
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      {passwordField("oldPassword", t`Old password`, "current-password")}
      {passwordField("newPassword", t`New password`, "new-password")}
      <p className="-mt-2 text-xs text-slate-600 dark:text-slate-300">{t`6 to 32 characters, without & < > " '`}</p>
      {passwordField("confirmPassword", t`Confirm new password`, "new-password")}
      <FormAlert text={formError} />
      <FormFooter busy={form.formState.isSubmitting} submit={<Trans>Change password</Trans>} />
    </form>
  );
}

function OwnAccount() {
  const { t } = useLingui();
  const query = useQuery({
    queryKey: KEY,
    queryFn: async ({ signal }) => (await request<{ profile: OwnProfile }>({ url: "/admin/account/profile", method: "get", signal })).data.profile,
  });
  if (query.isPending) return <PageSpinner />;
  if (query.isError) return <LoadRetry message={t`The profile could not be loaded.`} onRetry={() => void query.refetch()} />;
  return (
    <div className="mx-auto max-w-5xl space-y-4">
      <PageTitle>
        <Trans>My account</Trans>
      </PageTitle>
      <div className="grid items-start gap-4 lg:grid-cols-2">
        <OwnProfileForm key={query.data.id} profile={query.data} />
        <OwnPasswordForm username={query.data.username} />
      </div>
    </div>
  );
}

/**
 * `/admin/profile`: the signed-in admin's own profile and password, for every admin whatever
 * their groups grant (it is no menu rule). Opened directly (a reload), it waits for the back
 * office's data like a menu screen does.
 */
export default function AdminProfilePage() {
  const loaded = useNavTabs((s) => s.loaded);
  const location = useLocation();
  if (!loaded) return <Navigate to={loadingPath("/admin", targetFromLocation(location.pathname, location.search))} replace />;
  return <OwnAccount />;
}
