import { createDecipheriv, createECDH, createHmac, randomBytes, randomUUID } from "node:crypto";
import type { PushRequest, PushTransport } from "../../src/server/modules/push/transport.ts";
import type { PushMessage } from "../../src/shared/push.ts";

/** A browser's push subscriptions and a fake push service, for the tests of what the server pushes (push, notices). */

/** A browser's push subscription: a P-256 key pair and an auth secret, as the Push API makes them. */
export function browserSubscription(endpoint = `https://push.example.net/send/${randomUUID()}`) {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    endpoint,
    keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") },
    /** RFC 8291 (aes128gcm, one record): what the service worker's `event.data.json()` would read. */
    decrypt(body: Buffer): PushMessage {
      const hmac = (key: Buffer, data: Buffer) => createHmac("sha256", key).update(data).digest();
      const salt = body.subarray(0, 16);
      const idLength = body[20]!;
      const serverKey = body.subarray(21, 21 + idLength);
      const record = body.subarray(21 + idLength);
      const shared = ecdh.computeSecret(serverKey);
      const prkKey = hmac(auth, shared);
      const ikm = hmac(prkKey, Buffer.concat([Buffer.from("WebPush: info\0"), ecdh.getPublicKey(), serverKey, Buffer.from([1])]));
      const prk = hmac(salt, ikm);
      const cek = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0\x01", "binary")).subarray(0, 16);
      const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0\x01", "binary")).subarray(0, 12);
      const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
      decipher.setAuthTag(record.subarray(record.length - 16));
      const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
      const end = plain.lastIndexOf(2);
      return JSON.parse(plain.subarray(0, end).toString("utf8")) as PushMessage;
    },
  };
}
export type BrowserSubscription = ReturnType<typeof browserSubscription>;

/**
 * The push service: answers per endpoint (201 unless told), remembers every request; its host
 * names resolve to a public address (nothing is ever sent there: the answer is made up here).
 */
export class FakePushService implements PushTransport {
  readonly requests: PushRequest[] = [];
  readonly answers = new Map<string, number>();
  async send(request: PushRequest) {
    this.requests.push(request);
    return { status: this.answers.get(request.endpoint) ?? 201 };
  }
  async resolve() {
    return ["151.101.1.1"];
  }
  to(endpoint: string) {
    return this.requests.filter((r) => r.endpoint === endpoint);
  }
}

