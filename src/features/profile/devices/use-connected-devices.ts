/**
 * The partner's connected devices and recent sign-ins (docs/PRODUCT.md#connected-devices), asked of the
 * server each time the section shows, after each sign-out it makes, and when the network returns. They
 * are never kept on the tablet: without the network the section says it needs it, rather than showing
 * an old list or an old error.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ApiFailure, ApiResult } from '../../../../contract';
import { isNetworkFailure } from '../../../lib/api/client';
import { useOnline } from '../../../lib/online';
import { useSession } from '../../../lib/session';
import { endOtherSessions } from '../api/end-other-sessions';
import { endSession } from '../api/end-session';
import { listSessions, type DeviceSession } from '../api/list-sessions';
import { listSignIns, type SignIn } from '../api/list-sign-ins';

export type ConnectedDevicesState =
  | { kind: 'loading' }
  /** The network is down, or the server could not be reached: the list needs it. */
  | { kind: 'offline' }
  /** The server refused: its failure, worded by the screen in the user's language. */
  | { kind: 'failed'; failure: ApiFailure }
  | { kind: 'ready'; sessions: DeviceSession[]; signIns: SignIn[] };

/** This device first, then the most recently used. */
function bySession(a: DeviceSession, b: DeviceSession): number {
  if (a.current !== b.current) return a.current ? -1 : 1;
  return Date.parse(b.last_used_at) - Date.parse(a.last_used_at);
}

const newestFirst = (a: SignIn, b: SignIn) => Date.parse(b.at) - Date.parse(a.at);

/** A call that could not even be made (a bug, a mocked API): a failure like any other, never a crash. */
const THROWN: ApiFailure = { code: 500, status: 'error', error: { type: 'other', reason: 'internal', message: '' } };

function stateOf(sessions: ApiResult<DeviceSession[]>, signIns: ApiResult<SignIn[]>): ConnectedDevicesState {
  if (sessions.status === 'success' && signIns.status === 'success') {
    return {
      kind: 'ready',
      sessions: [...sessions.data].sort(bySession),
      signIns: [...signIns.data].sort(newestFirst),
    };
  }
  const failure = sessions.status === 'error' ? sessions : (signIns as ApiFailure);
  return isNetworkFailure(failure) ? { kind: 'offline' } : { kind: 'failed', failure };
}

export interface ConnectedDevices {
  state: ConnectedDevicesState;
  /** Asks the server again (the Retry of a failure). */
  reload(): void;
  /** Signs out one other device; the list is asked again afterwards, whatever the answer. */
  signOutDevice(id: string): Promise<ApiResult<null>>;
  /** Signs out every device but this one; the list is asked again afterwards. */
  signOutOthers(): Promise<ApiResult<null>>;
}

/** `version`: a new value asks again (the profile changed the password, which may have ended the others). */
export function useConnectedDevices(version = 0): ConnectedDevices {
  const online = useOnline();
  const { offline: sessionOffline, status } = useSession();
  // A session kept from the tablet's cache has no access token: the server cannot be asked either.
  const reachable = online && !sessionOffline && status === 'authenticated';
  const [asked, setAsked] = useState(0);
  // Each return of the network is a new request: what was answered before it is not shown again.
  const [wasReachable, setWasReachable] = useState(reachable);
  const [returns, setReturns] = useState(0);
  if (reachable !== wasReachable) {
    setWasReachable(reachable);
    if (reachable) setReturns((count) => count + 1);
  }
  const request = `${asked} ${version} ${returns}`;
  const [answer, setAnswer] = useState<{ request: string; state: ConnectedDevicesState } | null>(null);

  useEffect(() => {
    if (!reachable) return;
    let current = true;
    void Promise.all([listSessions(), listSignIns()])
      .then(([sessions, signIns]) => stateOf(sessions, signIns))
      .catch((): ConnectedDevicesState => ({ kind: 'failed', failure: THROWN }))
      .then((state) => {
        if (current) setAnswer({ request, state });
      });
    return () => {
      current = false;
    };
  }, [reachable, request]);

  let state: ConnectedDevicesState;
  // Offline, the list is not shown at all: neither the last one nor the last failure.
  if (!reachable) state = { kind: 'offline' };
  else if (answer?.request === request) state = answer.state;
  // A list already shown stays while it is asked again; anything else gives way to the spinner.
  else if (answer?.state.kind === 'ready') state = answer.state;
  else state = { kind: 'loading' };

  const reload = useCallback(() => setAsked((count) => count + 1), []);

  const afterwards = useCallback(
    async (call: () => Promise<ApiResult<null>>): Promise<ApiResult<null>> => {
      const result = await call().catch((): ApiResult<null> => THROWN);
      reload();
      return result;
    },
    [reload],
  );

  return {
    state,
    reload,
    signOutDevice: useCallback((id: string) => afterwards(() => endSession(id)), [afterwards]),
    signOutOthers: useCallback(() => afterwards(endOtherSessions), [afterwards]),
  };
}
