import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { request } from "../../src/client/api/index.ts";
import { RetrievePasswordDialog } from "../../src/client/features/auth/RetrievePasswordDialog.tsx";
import { ChangeBindDialog } from "../../src/client/user/account/ChangeBindDialog.tsx";

// The request layer is mocked: what a form sends, and that a refused form sends nothing.
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

afterEach(() => {
  vi.mocked(request).mockReset();
});

const wrap = (ui: ReactNode) => render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);
// The channel's radios share the address field's name ("Email", "Mobile"): fields are found as text boxes.
const box = (name: string) => screen.getByRole("textbox", { name });
const fill = (name: string, value: string) => fireEvent.change(name === "New password" ? screen.getByLabelText(name) : box(name), { target: { value } });

describe("RetrievePasswordDialog", () => {
  it("holds the new password to the SPEC §5 rule and sends nothing", async () => {
    const onOpenChange = vi.fn();
    wrap(<RetrievePasswordDialog open onOpenChange={onOpenChange} types={["email", "mobile"]} />);
    fill("Email", "member@example.com");
    fill("Verification code", "123456");
    fill("New password", "abc<def1");
    fireEvent.click(screen.getByRole("button", { name: "Reset password" }));
    await waitFor(() => expect(screen.getByLabelText("New password")).toHaveAccessibleDescription(`A password is 6 to 32 characters, without & < > " or '`));
    expect(screen.getByLabelText("New password")).toHaveFocus();
    expect(request).not.toHaveBeenCalled();
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it("sends the channel, the address and code without spaces, and the password, then closes", async () => {
    vi.mocked(request).mockResolvedValueOnce({ data: null } as never);
    const onOpenChange = vi.fn();
    wrap(<RetrievePasswordDialog open onOpenChange={onOpenChange} types={["email", "mobile"]} />);
    fireEvent.click(screen.getByRole("radio", { name: "Mobile" }));
    fill("Mobile", " 13800138000 ");
    expect(box("Mobile")).toHaveValue("13800138000");
    fill("Verification code", "1234 ");
    fill("New password", "newpass123");
    fireEvent.click(screen.getByRole("button", { name: "Reset password" }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(vi.mocked(request).mock.calls[0]?.[0]).toEqual({
      url: "/api/account/retrievePassword",
      method: "post",
      data: { type: "mobile", account: "13800138000", captcha: "1234", password: "newpass123" },
    });
  });
});

describe("ChangeBindDialog", () => {
  it("proves the current address with its code, then binds the new one with the code sent to it", async () => {
    vi.mocked(request).mockResolvedValueOnce({ data: { accountVerificationToken: "proof-1" } } as never).mockResolvedValueOnce({ data: null } as never);
    const onChanged = vi.fn();
    wrap(<ChangeBindDialog type="mobile" current="13800138000" open onOpenChange={() => undefined} onChanged={onChanged} />);
    const next = screen.getByRole("button", { name: "Next" });
    expect(next).toBeDisabled();
    fill("Verification code", " 1111");
    expect(next).toBeEnabled();
    fireEvent.click(next);
    await screen.findByText("Enter the new address and the code sent to it.");
    expect(vi.mocked(request).mock.calls[0]?.[0]).toEqual({ url: "/api/account/verification", method: "post", data: { type: "mobile", captcha: "1111" } });

    const saveButton = screen.getByRole("button", { name: "Save" });
    expect(saveButton).toBeDisabled();
    fireEvent.change(screen.getByLabelText("Mobile number"), { target: { value: "13900139000 " } });
    fill("Verification code", "2222");
    fireEvent.click(saveButton);
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(vi.mocked(request).mock.calls[1]?.[0]).toEqual({
      url: "/api/account/changeBind",
      method: "post",
      data: { type: "mobile", mobile: "13900139000", captcha: "2222", accountVerificationToken: "proof-1" },
    });
  });
});
