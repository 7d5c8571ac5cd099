import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";

/**
 * A local S3 emulator (s3rver: no real S3 server installs on these machines) on 127.0.0.1 with
 * one bucket, its objects kept in a temp folder. It checks request signatures, with the
 * emulator's one account (S3RVER / S3RVER).
 */
export interface TestS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The environment a server needs to keep its uploads there (STORAGE=s3 ...). */
  env: Record<string, string>;
  client: S3Client;
  /** Keys of every object under `prefix`, sorted. */
  keys(prefix?: string): Promise<string[]>;
  stop(): Promise<void>;
}

export async function startTestS3(bucket = "examhub-test"): Promise<TestS3> {
  const directory = mkdtempSync(path.join(os.tmpdir(), "examhub-s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const client = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials, requestChecksumCalculation: "WHEN_REQUIRED" });
  return {
    endpoint,
    bucket,
    ...credentials,
    env: {
      STORAGE: "s3",
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      S3_FORCE_PATH_STYLE: "1",
    },
    client,
    async keys(prefix = "") {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }));
        keys.push(...(page.Contents ?? []).map((o) => o.Key!));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
    async stop() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
