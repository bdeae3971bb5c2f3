import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { sessionRefused } from '../../api/baseApi';
import type { SessionDto } from '../../api/schema';
import { clearPersistentState } from '../../lib/usePersistentState';
import { readStoredUser, writeStoredUser } from './sessionStorage';

export interface SessionState {
  /** The session object exactly as the server returned it, mirrored in localStorage under `user`. */
  user: SessionDto | null;
}

const initialState: SessionState = { user: readStoredUser() };

/** A session ended: the stored session and the screens' remembered state (panels, chosen tokens) go with it. */
const cleared = (state: SessionState) => {
  state.user = null;
  writeStoredUser(null);
  clearPersistentState();
};

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    signedIn(state, action: PayloadAction<SessionDto>) {
      state.user = action.payload;
      writeStoredUser(action.payload);
    },
    loggedOut: cleared,
    sessionExpired: cleared,
  },
  // The server refused the stored token: the session is gone as surely as when its exp passes.
  extraReducers: (builder) => builder.addCase(sessionRefused, cleared),
});

export const { signedIn, loggedOut, sessionExpired } = sessionSlice.actions;
