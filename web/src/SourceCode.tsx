// @module SourceCode: the code of an object's source locations (its lines of each file, from the files route), with each file's path and a link to the whole file.
import type { ApiFindObjectsResult, ApiSourceLocation } from "../../src/contract/api-schemas.ts";
import { dateQuery } from "./analysis.ts";
import { appPath, restUrl } from "./api.ts";
import { CodeLines } from "./CodeLines.tsx";
import type { SourceFile } from "./impact-types.ts";
import { Link } from "./Link.tsx";
import { Loading } from "./ProblemNote.tsx";
import { viewOf } from "./url-state.ts";
import { useApi } from "./use-api.ts";

/** More locations than this are listed without their code. */
const LOCATIONS_SHOWN = 3;

interface Located {
  app: string;
  params: URLSearchParams;
  /** The object's id and full name: what finds its file's path when the file has no text. */
  object: { id: string; fullName: string };
  language: string | null;
}

export function SourceCode(props: Located & { locations: ApiSourceLocation[] }) {
  const { locations } = props;
  return (
    <div data-testid="source-code">
      {locations.slice(0, LOCATIONS_SHOWN).map((location) => (
        <LocationCode key={`${location.fileId} ${location.startLine}`} {...props} location={location} />
      ))}
      {locations.length > LOCATIONS_SHOWN && (
        <p class="muted">
          {locations.length - LOCATIONS_SHOWN} more locations:{" "}
          {locations
            .slice(LOCATIONS_SHOWN)
            .map((l) => `file ${l.fileId}, lines ${l.startLine}–${l.endLine}`)
            .join("; ")}
        </p>
      )}
    </div>
  );
}

function LocationCode(props: Located & { location: ApiSourceLocation }) {
  const { app, params, location } = props;
  const file = useApi<SourceFile>(
    restUrl(`${appPath(app)}/files/${encodeURIComponent(location.fileId)}`, {
      startLine: String(location.startLine),
      endLine: String(location.endLine),
      ...dateQuery(params),
    }),
  );
  const whole = viewOf(params, "file", {
    fileId: location.fileId,
    from: String(location.startLine),
    to: String(location.endLine),
    ...(props.language ? { language: props.language } : {}),
  });
  return (
    <div class="source">
      {file.loading && <Loading what="the code" />}
      {file.error && <FilePathOnly {...props} detail={file.error.detail} />}
      {file.data && (
        <>
          <p class="source-path">
            <code data-testid="source-path">{file.data.path}</code>, lines {file.data.startLine}–{file.data.endLine} of{" "}
            {file.data.totalLines} · <Link to={whole}>Open the whole file</Link>
          </p>
          <CodeLines file={file.data} language={props.language} testId="source-lines" />
        </>
      )}
    </div>
  );
}

/** Without the file's text, its path as find objects knows it (the object's `filePath`), and why there is no code. */
function FilePathOnly(props: Located & { location: ApiSourceLocation; detail: string }) {
  const { app, params, object, location } = props;
  const found = useApi<ApiFindObjectsResult>(
    restUrl(`${appPath(app)}/objects`, {
      fullname: object.fullName,
      operator: "equals",
      limit: "100",
      ...dateQuery(params),
    }),
    { keep: true },
  );
  const path = found.data?.objects.find((o) => o.id === object.id)?.filePath;
  return (
    <p class="muted" data-testid="source-missing">
      {path ? <code data-testid="source-path">{path}</code> : `File ${location.fileId}`}, lines {location.startLine}–
      {location.endLine}: {props.detail}
    </p>
  );
}
