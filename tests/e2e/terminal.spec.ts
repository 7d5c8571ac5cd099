import { AxeBuilder } from "@axe-core/playwright";
import { expect, openAdmin, test } from "./server.ts";

/**
 * The terminal panel in the real app: a super admin opens it from the header, runs
 * `version.node` on the server and reads its output and Success; the stream carries the token in
 * its header, never in the URL; either dialog hides the panel; the package manager is stored on
 * the server and used by the package commands.
 */

test("a super admin runs version.node in the terminal panel and sees its output and Success", async ({ page }) => {
  const streams: { url: string; token: string | undefined }[] = [];
  page.on("request", (req) => {
    if (req.url().includes("/admin/ajax/terminal")) streams.push({ url: req.url(), token: req.headers()["batoken"] });
  });
  await openAdmin(page);

  await page.getByRole("button", { name: "终端", exact: true }).click();
  const panel = page.getByRole("dialog", { name: "终端", exact: true });
  await expect(panel).toBeVisible();
  await expect(panel.getByText("暂无任务：请运行上方的命令。")).toBeVisible();

  await panel.getByRole("button", { name: "Node 版本" }).click();
  const task = panel.getByTestId("terminal-task").filter({ hasText: "version.node" });
  await expect(task.getByTestId("terminal-status")).toHaveText("成功");
  await task.getByRole("button", { name: /^version\.node/, expanded: false }).click();
  await expect(task.getByLabel("输出")).toContainText(/^v\d+\.\d+\.\d+/);

  // The token travelled in the header only.
  expect(streams).toHaveLength(1);
  expect(streams[0]!.url).toMatch(/command=version\.node&uuid=[0-9a-f-]{36}&extend=$/);
  expect(streams[0]!.url).not.toMatch(/token/i);
  expect(streams[0]!.token).toBeTruthy();

  await page.screenshot({ path: test.info().outputPath("terminal-desktop.png") });

  // No serious accessibility problem in the open panel (statuses carry an icon and text, not colour alone).
  const { violations } = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
  expect(violations.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);

  // The package-manager dialog hides the panel; the choice is stored on the server.
  await panel.getByRole("button", { name: /^包管理器/ }).click();
  await expect(panel).toBeHidden();
  const pmDialog = page.getByRole("dialog", { name: "包管理器" });
  await pmDialog.getByRole("radio", { name: "npm", exact: true }).click();
  await expect(pmDialog).toBeHidden();
  await page.getByRole("button", { name: "终端", exact: true }).click();
  await expect(panel.getByRole("button", { name: "包管理器：npm" })).toBeVisible();
  await panel.getByRole("button", { name: "npm 版本" }).click();
  await expect(panel.getByTestId("terminal-task").filter({ hasText: "version.npm" }).getByTestId("terminal-status")).toHaveText("成功");

  // The settings dialog hides the panel too.
  await panel.getByRole("button", { name: "设置" }).click();
  await expect(panel).toBeHidden();
  const settings = page.getByRole("dialog", { name: "终端设置" });
  await expect(settings.getByLabel("安装服务端口")).toHaveValue("8000");
  await settings.getByRole("button", { name: "取消" }).click();

  // Automatic clean-up (on by default) removed version.node's success when version.npm was added.
  // A reload keeps the tasks (the panel starts closed) and the server keeps the package manager.
  await page.reload();
  await page.getByRole("button", { name: "终端", exact: true }).click();
  await expect(panel.getByTestId("terminal-task")).toHaveCount(1);
  await expect(panel.getByTestId("terminal-task")).toContainText("version.npm");
  await expect(panel.getByRole("button", { name: "包管理器：npm" })).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath("terminal-phone.png") });
});

test("output that arrives while the panel is closed shows the dot; opening the panel clears it", async ({ page }) => {
  await openAdmin(page);
  // The stream is held until the panel has been closed, so its output arrives while it is closed.
  let release!: () => void;
  const closed = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/admin/ajax/terminal?*", async (route) => {
    await closed;
    await route.continue();
  });
  const button = page.getByRole("button", { name: /^终端/ });
  await button.click();
  const panel = page.getByRole("dialog", { name: "终端", exact: true });
  await panel.getByRole("button", { name: "Node 版本" }).click();
  await expect(panel.getByTestId("terminal-status").last()).toHaveText("连接中");
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  await expect(page.getByTestId("terminal-dot")).toHaveCount(0);

  release();
  await expect(page.getByTestId("terminal-dot")).toBeVisible();
  await expect(page.getByRole("button", { name: "终端（有新输出）" })).toBeVisible();
  await button.click();
  await expect(panel.getByTestId("terminal-status").last()).toHaveText("成功");
  await expect(page.getByTestId("terminal-dot")).toHaveCount(0);
});

test("migrate.run starts the server's own entry with --migrate: the embedded database is locked by the running server, and it says so", async ({ page }) => {
  await openAdmin(page);
  const data = await page.evaluate(async () => {
    const token = (JSON.parse(localStorage.getItem("adminInfo")!) as { state: { token: string } }).state.token;
    const res = await fetch(`/admin/ajax/terminal?command=migrate.run&uuid=${crypto.randomUUID()}&extend=`, { headers: { batoken: token, "think-lang": "en" } });
    const text = await res.text();
    return text
      .split("\n\n")
      .filter((b) => b.startsWith("data: "))
      .map((b) => (JSON.parse(b.slice(6)) as { data: string }).data);
  });
  expect(data[0]).toBe("command-link-success");
  expect(data.join("\n")).toMatch(/The embedded database in .* is in use by another process \(pid \d+\)/);
  expect(data.slice(-2)).toEqual(["command-exec-error", "command-exec-completed"]);
});
