import { Link, type LinkProps } from "react-router-dom";
import { buttonClass, type ButtonSize, type ButtonVariant } from "./Button.tsx";

/** A link to another screen that reads as an action: a router link with the button's look (secondary unless told). */
export function ButtonLink({ variant = "secondary", size = "md", className = "", ...props }: LinkProps & { variant?: ButtonVariant; size?: ButtonSize }) {
  return <Link className={buttonClass(variant, className, size)} {...props} />;
}
