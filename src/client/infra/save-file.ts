/** Hands a file to the browser's downloads (a fetched blob: the API's files need the access token). */
export function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked once the download has surely started.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
