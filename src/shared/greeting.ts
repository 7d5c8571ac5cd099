import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";

/** Greeting by hour (SPEC §9); the page shows it followed by WELCOME_BACK. */

export const WELCOME_BACK: MessageDescriptor = msg`welcome back`;

/**
 * The greeting for a local hour 0..23: before 5 late night, 5-8 morning, 9-11 forenoon,
 * 12-13 noon, 14-17 afternoon, 18-23 evening. Other values throw a RangeError.
 */
export function greetingFor(hour: number): MessageDescriptor {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) {
    throw new RangeError(`Hour must be an integer from 0 to 23, got ${hour}`);
  }
  if (hour < 5) return msg`It's late at night`;
  if (hour < 9) return msg`Good morning`;
  if (hour < 12) return msg`Good forenoon`;
  if (hour < 14) return msg`Good noon`;
  if (hour < 18) return msg`Good afternoon`;
  return msg`Good evening`;
}
