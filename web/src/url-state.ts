// @module The page's state lives in the URL query of `/`: read it, change it with pushState, follow back/forward, and put the scroll back where it was.
//
//   ?app=Shop                                                      the application's overview
//   ?app=Shop&view=search&name=order&operator=startswith&skip=25   search (find-objects parameters as the API names them)
//   ?app=Shop&view=object&id=42&hops=2&escalated=true              one object
//   ?app=Shop&view=file&fileId=7&from=10&to=20                    a source file, lines 10 to 20 marked
//   ?app=Shop&view=levels&level=1&path=0,3                         level 1, drilled into node 0, then node 3 of level 2
//   ?app=Shop&view=transactions&id=42                              the transactions, one of them drawn
//   ?app=Shop&view=changes&from=…&to=…                             what changed between two analyses
//   &date=2026-05-01T00:00:00Z                                     on any of them: the analysis read
import { useEffect, useState } from "preact/hooks";

export const VIEWS = ["app", "search", "object", "file", "levels", "transactions", "changes"] as const;
export type View = (typeof VIEWS)[number];

export const currentParams = (): URLSearchParams => new URLSearchParams(location.search);

/** `base` with `changes` applied: a string sets, an array sets repeated values, null removes. */
export function withParams(
  base: URLSearchParams,
  changes: Record<string, string | readonly string[] | null>,
): URLSearchParams {
  const next = new URLSearchParams(base);
  for (const [name, value] of Object.entries(changes)) {
    next.delete(name);
    if (value === null) continue;
    for (const v of typeof value === "string" ? [value] : value) next.append(name, v);
  }
  return next;
}

/** The state of another view of the same application and analysis (`date` kept). */
export const viewOf = (params: URLSearchParams, view: View, extra: Record<string, string> = {}): URLSearchParams =>
  withParams(new URLSearchParams({ app: params.get("app") ?? "" }), {
    view: view === "app" ? null : view,
    date: params.get("date"),
    ...extra,
  });

/** The URL of the page in state `params`. */
export const hrefOf = (params: URLSearchParams): string => `${location.pathname}${params.size ? `?${params}` : ""}`;

const listeners = new Set<() => void>();

// The browser's own restoration scrolls before the answers are back on the page: views do it once drawn.
if (typeof history !== "undefined") history.scrollRestoration = "manual";
/** Where the page was scrolled in the history entry back/forward just returned to; taken by the first view drawn. */
let pendingScroll: number | null = null;

/** Moves to `params` as a new history entry (or in place with `replace`) and tells every useUrlState. */
export function navigate(params: URLSearchParams, options: { replace?: boolean } = {}): void {
  const href = hrefOf(params);
  if (href === `${location.pathname}${location.search}`) return;
  if (options.replace) history.replaceState(history.state, "", href);
  else {
    history.replaceState({ ...history.state, scrollY: scrollY }, "");
    history.pushState(null, "", href);
  }
  pendingScroll = null;
  for (const listener of listeners) listener();
}

/** Once the view shows what it had shown (`ready`), puts the scroll where it was when the user left this history entry. */
export function useScrollRestore(ready: boolean): void {
  useEffect(() => {
    if (!ready || pendingScroll === null) return;
    const y = pendingScroll;
    pendingScroll = null;
    scrollTo(0, y);
  }, [ready]);
}

/** The current URL parameters; the component re-renders on navigate() and on back/forward. */
export function useUrlState(): URLSearchParams {
  const [params, setParams] = useState(currentParams);
  useEffect(() => {
    const update = () => setParams(currentParams());
    const back = (event: PopStateEvent) => {
      pendingScroll = (event.state as { scrollY?: number } | null)?.scrollY ?? null;
      update();
    };
    listeners.add(update);
    addEventListener("popstate", back);
    return () => {
      listeners.delete(update);
      removeEventListener("popstate", back);
    };
  }, []);
  return params;
}
