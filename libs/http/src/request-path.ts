/** The path of a request target, without query string or fragment (what Express's req.path gives): `/metrics?x` is /metrics. */
export function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}
