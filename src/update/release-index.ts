// release.json: what one release publishes (version, one archive per target, install.sh), written by
// `bun build.ts --release` and read by `memnox update`.
import * as v from "valibot";
import { MemnoxError } from "../core/errors.ts";

/** Where releases live unless MEMNOX_INSTALL_BASE or the install receipt says otherwise. */
const DEFAULT_RELEASES = "https://github.com/memnox/memnox/releases";
export const LATEST_BASE = `${DEFAULT_RELEASES}/latest/download`;
export const INDEX_FILE = "release.json";

const Sha256 = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, "is not a sha256 in hex"));
const FileName = v.pipe(v.string(), v.regex(/^[A-Za-z0-9._-]+$/, "is not a plain file name"));
const Size = v.pipe(v.number(), v.integer(), v.minValue(0));

const FileSchema = v.object({ file: FileName, size: Size, sha256: Sha256 });

const TargetSchema = v.object({
  name: v.pipe(v.string(), v.regex(/^(linux|darwin)-(x64|arm64)(-baseline)?(-musl)?$/, "is not a target name")),
  os: v.picklist(["linux", "darwin"]),
  cpu: v.picklist(["x64", "arm64"]),
  libc: v.optional(v.picklist(["glibc", "musl"])),
  baseline: v.boolean(),
  npm: v.string(),
  file: FileName,
  size: Size,
  sha256: Sha256,
});

const IndexSchema = v.object({
  schema: v.literal(1),
  name: v.literal("memnox"),
  version: v.pipe(v.string(), v.regex(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, "is not a version")),
  installScript: FileSchema,
  checksums: FileName,
  targets: v.array(TargetSchema),
});

export type ReleaseIndex = v.InferOutput<typeof IndexSchema>;

/** The index read from `url`; anything else is an error naming the url and the field. */
export function parseReleaseIndex(url: string, text: string): ReleaseIndex {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new MemnoxError("io", `the release index at \`${url}\` is not JSON: ${(e as Error).message}`);
  }
  const res = v.safeParse(IndexSchema, data, { abortEarly: true });
  if (res.success) return res.output;
  const issue = res.issues[0];
  const where = (issue.path ?? []).map((p) => String(p.key)).join(".") || "(top)";
  throw new MemnoxError(
    "io",
    `the release index at \`${url}\` is not one memnox publishes: \`${where}\` ${issue.message}`,
    "check MEMNOX_INSTALL_BASE, or the base in ~/.memnox/app/install.json",
  );
}
