// @module useApi: the answer of one GET as component state (loading, data or the API's problem), re-fetched when the URL changes.
import { useEffect, useState } from "preact/hooks";
import { ApiProblem, apiGet } from "./api.ts";

export interface Fetched<T> {
  data: T | undefined;
  error: ApiProblem | undefined;
  loading: boolean;
}

// Level graphs and nodes are read again on every drill-down step: answers are kept for the page's
// life (an analysis is immutable; a reload sees a newer one), at most this many.
const KEPT_ANSWERS = 64;
const answers = new Map<string, Promise<unknown>>();

function remembered<T>(url: string): Promise<T> {
  let answer = answers.get(url);
  if (!answer) {
    answer = apiGet<T>(url);
    answer.catch(() => answers.delete(url));
    answers.set(url, answer);
    while (answers.size > KEPT_ANSWERS) answers.delete(answers.keys().next().value!);
  }
  return answer as Promise<T>;
}

/** Forgets every kept answer (after the API key changes, for instance). */
export const forgetAnswers = (): void => answers.clear();

/** The state of `load()` for `key` (null: nothing to load yet), loaded again when the key changes. */
function useLoaded<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>): Fetched<T> {
  const [state, setState] = useState<Fetched<T> & { key: string | null }>({
    key: null,
    data: undefined,
    error: undefined,
    loading: key !== null,
  });
  useEffect(() => {
    if (key === null) {
      setState({ key, data: undefined, error: undefined, loading: false });
      return;
    }
    const controller = new AbortController();
    setState({ key, data: undefined, error: undefined, loading: true });
    load(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ key, data, error: undefined, loading: false }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const problem =
          error instanceof ApiProblem
            ? error
            : new ApiProblem({ status: 0, code: "client_error", title: "Error", detail: String(error) });
        setState({ key, data: undefined, error: problem, loading: false });
      },
    );
    return () => controller.abort();
  }, [key]);
  // Data of an earlier key is never shown as the answer of the current one.
  return state.key === key ? state : { data: undefined, error: undefined, loading: key !== null };
}

/** The answer of GET `url` (null: nothing to fetch yet). `keep` reuses answers across components and steps. */
export function useApi<T>(url: string | null, options: { keep?: boolean } = {}): Fetched<T> {
  return useLoaded(url === null ? null : `${options.keep ? "kept" : "fresh"} ${url}`, (signal) =>
    options.keep ? remembered<T>(url!) : apiGet<T>(url!, signal),
  );
}

/** The answers of several GETs, all kept (see `keep`); the first failure is the error. */
export function useApiAll<T>(urls: readonly string[]): Fetched<T[]> {
  return useLoaded(urls.length ? urls.join("\n") : null, () => Promise.all(urls.map((url) => remembered<T>(url))));
}
