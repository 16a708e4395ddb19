import { api, apiErrorFrom, ApiError, type UploadedDocument } from "@/contract";

/**
 * Uploads files with XMLHttpRequest, whose upload events report progress (fetch has none).
 * `onProgress` gets the fraction sent, 0 to 1. Every other knowledge call goes through `api.knowledge`.
 */
export function uploadDocuments(
  id: string,
  files: File[],
  onProgress: (fraction: number) => void,
): Promise<UploadedDocument[]> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const file of files) form.append("file", file, file.name);
    const request = new XMLHttpRequest();
    request.open("POST", api.knowledge.documentsUrl(id));
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      if (request.status === 202) {
        onProgress(1);
        resolve((JSON.parse(request.responseText) as { documents: UploadedDocument[] }).documents);
      } else {
        reject(apiErrorFrom(request.status, request.responseText));
      }
    };
    request.onerror = () =>
      reject(new ApiError(0, "network_error", "The upload failed: the server could not be reached"));
    request.send(form);
  });
}
