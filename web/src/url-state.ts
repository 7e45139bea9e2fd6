// @module The page's state lives in the URL query of `/`: read it, change it with pushState, follow back/forward.
//
//   ?app=Shop&view=search&name=order&operator=startswith&skip=25   search (find-objects parameters as the API names them)
//   ?app=Shop&view=object&id=42&hops=2&escalated=true              one object
//   ?app=Shop&view=levels&level=1&path=0,3                         level 1, drilled into node 0, then node 3 of level 2
import { useEffect, useState } from "preact/hooks";

export type View = "search" | "object" | "levels";

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

/** The URL of the page in state `params`. */
export const hrefOf = (params: URLSearchParams): string => `${location.pathname}${params.size ? `?${params}` : ""}`;

const listeners = new Set<() => void>();

/** Moves to `params` as a new history entry (or in place with `replace`) and tells every useUrlState. */
export function navigate(params: URLSearchParams, options: { replace?: boolean } = {}): void {
  const href = hrefOf(params);
  if (href === `${location.pathname}${location.search}`) return;
  if (options.replace) history.replaceState(null, "", href);
  else history.pushState(null, "", href);
  for (const listener of listeners) listener();
}

/** The current URL parameters; the component re-renders on navigate() and on back/forward. */
export function useUrlState(): URLSearchParams {
  const [params, setParams] = useState(currentParams);
  useEffect(() => {
    const update = () => setParams(currentParams());
    listeners.add(update);
    addEventListener("popstate", update);
    return () => {
      listeners.delete(update);
      removeEventListener("popstate", update);
    };
  }, []);
  return params;
}
