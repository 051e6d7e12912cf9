/** Where the service's endpoint is (CONTRACT §1): the HTTP front and the starting server's not-ready answer route by it. */

/** The folder of the endpoint and its pages, and the endpoint itself, for the configured `module`. */
export function endpointPaths(module: string): { base: string; endpoint: string } {
  const base = `/DesktopModules/${module}_Common/WebServices/`;
  return { base, endpoint: `${base}API.asmx` };
}
