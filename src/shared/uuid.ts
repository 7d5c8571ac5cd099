/** Unique ids (SPEC §9: 36 characters), also outside secure contexts where randomUUID is missing. */

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** The part of the Web Crypto API used here (browsers and Node alike; shared code sees neither's types). */
interface WebCrypto {
  randomUUID?: () => string;
  getRandomValues?: (array: Uint8Array) => Uint8Array;
}

/** An RFC 4122 version 4 UUID such as `3b241101-e2bb-4255-8caf-4136c566a962`. */
export function uuid(): string {
  const crypto = (globalThis as { crypto?: WebCrypto }).crypto;
  if (typeof crypto?.randomUUID === "function") return crypto.randomUUID();
  if (typeof crypto?.getRandomValues !== "function") {
    throw new Error("uuid() needs crypto.getRandomValues, which this environment does not provide");
  }

  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40; // version 4
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // variant 10xx
  const hex = Array.from(bytes, (byte) => HEX[byte] ?? "00").join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
