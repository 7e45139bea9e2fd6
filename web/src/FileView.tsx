// @module FileView: a whole source file, highlighted, the lines of the object it was opened from marked and scrolled to.
import { useEffect } from "preact/hooks";
import { dateQuery } from "./analysis.ts";
import { appPath, restUrl } from "./api.ts";
import { CodeLines } from "./CodeLines.tsx";
import type { SourceFile } from "./impact-types.ts";
import { Loading, ProblemNote } from "./ProblemNote.tsx";
import { useApi } from "./use-api.ts";

export function FileView(props: { app: string; params: URLSearchParams }) {
  const { app, params } = props;
  const fileId = params.get("fileId") ?? "";
  const from = Number(params.get("from")) || 0;
  const to = Number(params.get("to")) || from;
  const file = useApi<SourceFile>(restUrl(`${appPath(app)}/files/${encodeURIComponent(fileId)}`, dateQuery(params)));
  useEffect(() => {
    if (file.data && from)
      document.querySelector(`[data-testid="file-lines"] [data-n="${from}"]`)?.scrollIntoView({ block: "center" });
  }, [file.data]);
  return (
    <section aria-labelledby="file-title">
      <h2 id="file-title" tabIndex={-1}>
        {file.data ? file.data.path : `File ${fileId}`}
      </h2>
      {file.error && <ProblemNote problem={file.error} what={`Reading file ${fileId}`} />}
      {file.loading && <Loading what="the file" />}
      {file.data && (
        <>
          <p class="muted" data-testid="file-summary">
            {file.data.totalLines.toLocaleString("en")} lines{from ? `; lines ${from}–${to} marked` : ""}
          </p>
          <CodeLines
            file={file.data}
            language={params.get("language")}
            marked={from ? { from, to } : undefined}
            testId="file-lines"
          />
        </>
      )}
    </section>
  );
}
