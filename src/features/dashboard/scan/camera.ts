/**
 * The tablet's camera, for scanning (docs/PRODUCT.md#scanning-and-the-vin-check) and for the odometer's
 * photo: the rear camera first, its torch where the track has one, and every way it can be refused, as
 * a problem the screen words.
 */

/** Why the camera cannot be used; each has its own message, and manual entry stays open. */
export type CameraProblem = 'insecure' | 'no_camera' | 'denied' | 'busy' | 'failed';

export class CameraError extends Error {
  constructor(readonly problem: CameraProblem) {
    super(`camera: ${problem}`);
    this.name = 'CameraError';
  }
}

function problemOf(error: unknown): CameraProblem {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  switch (name) {
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'no_camera';
    case 'NotAllowedError':
    case 'SecurityError':
      return 'denied';
    case 'NotReadableError':
    case 'AbortError':
      return 'busy';
    default:
      return 'failed';
  }
}

/** The picture size asked for: enough to read a code at 150 ms a look, or as sharp as can be for a photo. */
export const SCAN_SIZE = { width: 1280, height: 720 };
export const PHOTO_SIZE = { width: 2560, height: 1440 };

/**
 * Opens the rear camera ("environment"), or any camera a device without one has, at about `size`.
 * Browsers give navigator.mediaDevices only to secure pages (https or localhost): without it, the page
 * is not one.
 */
export async function openCamera(size = SCAN_SIZE): Promise<MediaStream> {
  if (!window.isSecureContext || !navigator.mediaDevices?.getUserMedia) throw new CameraError('insecure');
  try {
    return await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: { ideal: 'environment' }, width: { ideal: size.width }, height: { ideal: size.height } },
    });
  } catch (error) {
    throw new CameraError(problemOf(error));
  }
}

export function stopCamera(stream: MediaStream | null): void {
  stream?.getTracks().forEach((track) => track.stop());
}

/**
 * Opens the camera (openCamera) and plays it in the view's video element. Null when the view went
 * away while the camera opened or started playing: the camera is stopped again, never left on.
 * Throws a CameraError as openCamera does.
 */
export async function playCamera(
  view: { video: () => HTMLVideoElement | null; wanted: () => boolean },
  size = SCAN_SIZE,
): Promise<MediaStream | null> {
  const stream = await openCamera(size);
  const video = view.video();
  if (view.wanted() && video) {
    video.srcObject = stream;
    await video.play().catch(() => undefined);
    if (view.wanted()) return stream;
  }
  stopCamera(stream);
  return null;
}

/** The torch's capability is not in TypeScript's DOM types yet (Image Capture extension). */
interface TorchCapabilities extends MediaTrackCapabilities {
  torch?: boolean;
}

export function hasTorch(stream: MediaStream): boolean {
  const track = stream.getVideoTracks()[0];
  if (!track || typeof track.getCapabilities !== 'function') return false;
  return (track.getCapabilities() as TorchCapabilities).torch === true;
}

export async function setTorch(stream: MediaStream, on: boolean): Promise<void> {
  const track = stream.getVideoTracks()[0];
  await track?.applyConstraints({ advanced: [{ torch: on } as MediaTrackConstraintSet] });
}
