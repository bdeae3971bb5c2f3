import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SessionDto } from '../api/schema';
import { readStoredUser, writeStoredUser } from './sessionStorage';

export interface SessionState {
  /** The session object exactly as the server returned it, mirrored in localStorage under `user`. */
  user: SessionDto | null;
}

const initialState: SessionState = { user: readStoredUser() };

const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    signedIn(state, action: PayloadAction<SessionDto>) {
      state.user = action.payload;
      writeStoredUser(action.payload);
    },
    loggedOut(state) {
      state.user = null;
      writeStoredUser(null);
    },
    sessionExpired(state) {
      state.user = null;
      writeStoredUser(null);
    },
  },
});

export const { signedIn, loggedOut, sessionExpired } = sessionSlice.actions;
export const sessionReducer = sessionSlice.reducer;
