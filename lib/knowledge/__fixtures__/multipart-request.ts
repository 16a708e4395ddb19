/**
 * A multipart Request as a server receives one: the form's encoded bytes (the platform's FormData
 * encoding, boundary and all), not a live FormData object.
 *
 * Why: on Node 24 (undici 7) a Request built on a FormData pushes the form into its body stream
 * from a promise nobody awaits; when the reader refuses the upload and cancels the body half-way,
 * the next push throws "ReadableStream is already closed" as an unhandled rejection. That is the
 * in-process test client's own failure: a real upload's body comes from the socket and is
 * cancelled cleanly (read-upload-http.test.ts). A Blob body is streamed by Node itself and cancels
 * cleanly on Node 20 and 24.
 */
export async function multipartRequest(
  form: FormData,
  url = "http://localhost/x",
  headers: Record<string, string> = {},
): Promise<Request> {
  const encoded = await new Response(form).blob();
  return new Request(url, { method: "POST", body: encoded, headers: { "content-type": encoded.type, ...headers } });
}
