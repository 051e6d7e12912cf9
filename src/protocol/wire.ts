/** What a binding hands back to the HTTP server: status, headers, body bytes. */
export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}
