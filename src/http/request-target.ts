// @module The path and query of a request URL as sent, read from the string: routing, tags and the api-key parameter need no parsed URL.

/** `/path?query` of an absolute URL (`http://host/path?query#fragment`), exactly as written. */
export function requestTarget(url: string): string {
  const start = url.indexOf("/", url.indexOf("://") + 3);
  if (start < 0) return "/";
  const fragment = url.indexOf("#", start);
  return url.slice(start, fragment < 0 ? undefined : fragment);
}

/** The path exactly as sent: routing must not decode `%2F` inside an application name. */
export function rawPath(request: Request): string {
  const target = requestTarget(request.url);
  const query = target.indexOf("?");
  return query < 0 ? target : target.slice(0, query);
}

/** The first value of query parameter `name`, decoded as form data; undefined when absent. */
export function queryParameter(url: string, name: string): string | undefined {
  const target = requestTarget(url);
  const query = target.indexOf("?");
  return query < 0 ? undefined : (new URLSearchParams(target.slice(query + 1)).get(name) ?? undefined);
}
