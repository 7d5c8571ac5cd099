import { setupI18n, type MessageDescriptor, type Messages } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { messages as en } from "../../locales/en/client.po";
import { messages as zhCn } from "../../locales/zh-cn/client.po";
import { messages as enMember } from "../../locales/en/member.po";
import { messages as zhCnMember } from "../../locales/zh-cn/member.po";
import { useWrongCountText } from "../../src/client/features/exam/QuestionListTab.tsx";
import { profileSchema } from "../../src/client/user/account/Profile.tsx";

/** The app's own catalogs (client and member: these screens are the member's), compiled as the build compiles them. */
function i18nFor(locale: "en" | "zh-cn") {
  const catalog: Messages = locale === "en" ? { ...en, ...enMember } : { ...zhCn, ...zhCnMember };
  return setupI18n({ locale, messages: { [locale]: catalog } });
}

function WrongCounts({ counts }: { counts: number[] }) {
  const text = useWrongCountText();
  return (
    <ul>
      {counts.map((n) => (
        <li key={n}>{text(n, "2026-01-02 10:00")}</li>
      ))}
    </ul>
  );
}

describe("count strings use plural forms", () => {
  it("English: one and other", () => {
    render(
      <I18nProvider i18n={i18nFor("en")}>
        <WrongCounts counts={[1, 2]} />
      </I18nProvider>,
    );
    expect(screen.getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Wrong 1 time, last on 2026-01-02 10:00", "Wrong 2 times, last on 2026-01-02 10:00"]);
  });

  it("Chinese: one form for every count", () => {
    render(
      <I18nProvider i18n={i18nFor("zh-cn")}>
        <WrongCounts counts={[1, 2]} />
      </I18nProvider>,
    );
    expect(screen.getAllByRole("listitem").map((li) => li.textContent)).toEqual(["答错 1 次，最近一次 2026-01-02 10:00", "答错 2 次，最近一次 2026-01-02 10:00"]);
  });

  it("message descriptors (form checks) too", () => {
    // The profile form's schema hands the message it refuses a nickname with to the translator.
    const asked: MessageDescriptor[] = [];
    profileSchema((m) => (asked.push(m), "")).safeParse({ avatar: "", nickname: "x".repeat(51), gender: 0, birthday: "", motto: "" });
    expect(asked).toHaveLength(1);
    const one = asked[0]!;
    expect(i18nFor("en")._(one)).toBe("At most 50 characters");
    expect(i18nFor("zh-cn")._(one)).toBe("最多 50 个字符");
    // The descriptor carries its count: a limit of 1 reads in the singular in English.
    expect(i18nFor("en")._({ ...one, values: { max: 1 } })).toBe("At most 1 character");
    expect(i18nFor("zh-cn")._({ ...one, values: { max: 1 } })).toBe("最多 1 个字符");
  });
});
