import { useLingui } from "@lingui/react/macro";
import { Field } from "../../ui/form/Field.tsx";
import { ChannelChoice } from "./ChannelChoice.tsx";
import { SendCodeButton } from "./SendCodeButton.tsx";

export type VerificationType = "email" | "mobile";

/**
 * The register tab's proof of address: how to register (when the site offers both), the email
 * address or mobile number, the code sent to it and the button that sends it. Its own chunk,
 * loaded once the login screen has been painted (MemberAuthPanel): the login form is the first
 * screen, the register tab is one click away.
 */
export default function RegisterVerification({
  types,
  type,
  onTypeChange,
  target,
  onTargetChange,
  code,
  onCodeChange,
  errors,
}: {
  types: VerificationType[];
  type: VerificationType;
  onTypeChange: (type: VerificationType) => void;
  target: string;
  onTargetChange: (target: string) => void;
  code: string;
  onCodeChange: (code: string) => void;
  errors: { target?: string | null; code?: string | null };
}) {
  const { t } = useLingui();
  return (
    <>
      <ChannelChoice label={t`Register with`} name="register-type" types={types} value={type} onChange={onTypeChange} />
      <Field
        label={type === "email" ? t`Email` : t`Mobile`}
        type={type === "email" ? "email" : "tel"}
        autoComplete={type === "email" ? "email" : "tel"}
        value={target}
        error={errors.target}
        onChange={(e) => onTargetChange(e.target.value.trim())}
      />
      <div className="flex items-end gap-2">
        <div className="flex-1">
          <Field label={t`Verification code`} inputMode="numeric" autoComplete="one-time-code" value={code} error={errors.code} onChange={(e) => onCodeChange(e.target.value.trim())} />
        </div>
        <SendCodeButton channel={type} target={target} event="user_register" />
      </div>
    </>
  );
}
