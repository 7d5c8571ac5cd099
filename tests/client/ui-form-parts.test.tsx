import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { FileUploadButton } from "../../src/client/ui/FileUploadButton.tsx";
import { FormAlert, FormFooter } from "../../src/client/ui/FormFooter.tsx";

describe("FormFooter", () => {
  it("submits the form, and while busy refuses a second press", async () => {
    const submitted = vi.fn((e: { preventDefault: () => void }) => e.preventDefault());
    const cancel = vi.fn();
    const { rerender } = render(
      <form onSubmit={submitted}>
        <FormFooter busy={false} onCancel={cancel} cancel="Close" submit="Add row" />
      </form>,
    );
    await userEvent.click(screen.getByRole("button", { name: "Add row" }));
    expect(submitted).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(submitted).toHaveBeenCalledTimes(1);
    rerender(
      <form onSubmit={submitted}>
        <FormFooter busy onCancel={cancel} cancel="Close" submit="Add row" />
      </form>,
    );
    expect(screen.getByRole("button", { name: "Add row" })).toBeDisabled();
  });

  it("has no way out without onCancel and no submit when submit is null", () => {
    render(<FormFooter onCancel={() => {}} cancel="Close" submit={null} />);
    expect(screen.getAllByRole("button").map((b) => b.textContent)).toEqual(["Close"]);
  });

  it("FormAlert reads out a refusal and is absent without one", () => {
    const { rerender } = render(<FormAlert text={null} />);
    expect(screen.queryByRole("alert")).toBeNull();
    rerender(<FormAlert text="Refused" />);
    expect(screen.getByRole("alert")).toHaveTextContent("Refused");
  });
});

describe("FileUploadButton", () => {
  it("opens the hidden file input, hands on the chosen files and empties the input so the same file can be chosen again", async () => {
    const onFiles = vi.fn();
    render(
      <FileUploadButton onFiles={onFiles} accept="image/*" multiple inputLabel="Photos" inputTestId="photos">
        Add images
      </FileUploadButton>,
    );
    const input = screen.getByTestId("photos") as HTMLInputElement;
    expect(input).toHaveAttribute("type", "file");
    expect(input).toHaveAttribute("accept", "image/*");
    expect(input).toHaveAttribute("aria-label", "Photos");
    expect(input.hidden).toBe(true);
    const click = vi.spyOn(input, "click");
    await userEvent.click(screen.getByRole("button", { name: "Add images" }));
    expect(click).toHaveBeenCalledTimes(1);
    const a = new File(["a"], "a.png", { type: "image/png" });
    const b = new File(["b"], "b.png", { type: "image/png" });
    await userEvent.upload(input, [a, b]);
    expect(onFiles).toHaveBeenCalledWith([a, b]);
    expect(input.value).toBe("");
  });

  it("hands on nothing when the chooser is closed without a file", () => {
    const onFiles = vi.fn();
    render(
      <FileUploadButton onFiles={onFiles} inputTestId="file">
        Upload file
      </FileUploadButton>,
    );
    fireEvent.change(screen.getByTestId("file"), { target: { files: [] } });
    expect(onFiles).not.toHaveBeenCalled();
  });
});
