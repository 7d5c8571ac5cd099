import { useRef } from "react";
import { Button, type ButtonProps } from "./Button.tsx";

/**
 * A button that opens the file chooser (a hidden file input beside it) and hands the chosen
 * files on. The input is emptied at once, so choosing the same file again picks it again.
 * `inputLabel` and `inputTestId` name the input for assistive technology and tests.
 */
export function FileUploadButton({
  onFiles,
  accept,
  multiple,
  inputLabel,
  inputTestId,
  ...button
}: Omit<ButtonProps, "onClick"> & { onFiles: (files: File[]) => void; accept?: string; multiple?: boolean; inputLabel?: string; inputTestId?: string }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button {...button} onClick={() => input.current?.click()} />
      <input
        ref={input}
        type="file"
        hidden
        tabIndex={-1}
        accept={accept}
        multiple={multiple}
        aria-label={inputLabel}
        data-testid={inputTestId}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = "";
          if (files.length > 0) onFiles(files);
        }}
      />
    </>
  );
}
