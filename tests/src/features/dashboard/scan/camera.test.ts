/**
 * The camera played in a view (scan and odometer photo): never left on when the view went away while
 * it opened or started playing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PHOTO_SIZE, playCamera } from '../../../../../src/features/dashboard/scan/camera';

const track = { stop: vi.fn() };
const stream = { getTracks: () => [track], getVideoTracks: () => [track] };
const getUserMedia = vi.fn<(constraints: MediaStreamConstraints) => Promise<unknown>>();

beforeEach(() => {
  track.stop.mockClear();
  getUserMedia.mockReset().mockResolvedValue(stream);
  vi.stubGlobal('isSecureContext', true);
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
  Object.defineProperty(HTMLMediaElement.prototype, 'srcObject', { value: null, writable: true, configurable: true });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function videoPlaying(onPlay: () => void = () => undefined): HTMLVideoElement {
  const video = document.createElement('video');
  vi.spyOn(video, 'play').mockImplementation(() => {
    onPlay();
    return Promise.resolve();
  });
  return video;
}

describe('playCamera', () => {
  it('plays the rear camera at the size asked for in the view and hands the stream back', async () => {
    const video = videoPlaying();
    const played = await playCamera({ video: () => video, wanted: () => true }, PHOTO_SIZE);
    expect(played).toBe(stream);
    expect(video.srcObject).toBe(stream);
    expect(video.play).toHaveBeenCalledOnce();
    expect(getUserMedia).toHaveBeenCalledWith(
      expect.objectContaining({
        video: expect.objectContaining({ facingMode: { ideal: 'environment' }, width: { ideal: 2560 } }),
      }),
    );
    expect(track.stop).not.toHaveBeenCalled();
  });

  it('stops the camera when the view went away while it opened', async () => {
    let wanted = true;
    getUserMedia.mockImplementation(() => {
      wanted = false;
      return Promise.resolve(stream);
    });
    const video = videoPlaying();
    expect(await playCamera({ video: () => video, wanted: () => wanted })).toBeNull();
    expect(video.play).not.toHaveBeenCalled();
    expect(track.stop).toHaveBeenCalledOnce();
  });

  it('stops the camera when the view went away while it started playing', async () => {
    let wanted = true;
    const video = videoPlaying(() => (wanted = false));
    expect(await playCamera({ video: () => video, wanted: () => wanted })).toBeNull();
    expect(track.stop).toHaveBeenCalledOnce();
  });

  it('stops the camera when the view has no video element any more', async () => {
    expect(await playCamera({ video: () => null, wanted: () => true })).toBeNull();
    expect(track.stop).toHaveBeenCalledOnce();
  });

  it('says why when the camera is refused, and opens nothing', async () => {
    getUserMedia.mockRejectedValue(new DOMException('camera', 'NotAllowedError'));
    await expect(playCamera({ video: () => videoPlaying(), wanted: () => true })).rejects.toMatchObject({
      problem: 'denied',
    });
  });
});
