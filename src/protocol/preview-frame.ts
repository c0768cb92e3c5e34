/**
 * Live-preview frames travel as binary WebSocket messages: a 1-byte kind, a 1-byte length, the
 * window id (UTF-8), then the JPEG. No base64, no JSON: previews are the bulk of the traffic.
 */
export const FRAME_PREVIEW = 1

export function encodePreviewFrame(windowId: string, jpeg: Uint8Array): Uint8Array {
  const id = new TextEncoder().encode(windowId.slice(0, 255))
  const out = new Uint8Array(2 + id.length + jpeg.length)
  out[0] = FRAME_PREVIEW
  out[1] = id.length
  out.set(id, 2)
  out.set(jpeg, 2 + id.length)
  return out
}

export function decodePreviewFrame(data: Uint8Array): { windowId: string; jpeg: Uint8Array } | null {
  if (data.length < 2 || data[0] !== FRAME_PREVIEW) return null
  const len = data[1]!
  if (data.length < 2 + len) return null
  return { windowId: new TextDecoder().decode(data.subarray(2, 2 + len)), jpeg: data.subarray(2 + len) }
}
