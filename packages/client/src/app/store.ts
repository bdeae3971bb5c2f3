import { configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { baseApi } from './api/baseApi';
import { loggedOut, sessionExpired } from './session/sessionSlice';
import { sessionReducer } from './session/sessionSlice';

export const store = configureStore({
  reducer: {
    session: sessionReducer,
    [baseApi.reducerPath]: baseApi.reducer,
  },
  middleware: (getDefault) => getDefault().concat(baseApi.middleware),
});

// Cached data of one account must never show for the next one.
store.subscribe(
  (() => {
    let previous = store.getState().session.user?._id;
    return () => {
      const current = store.getState().session.user?._id;
      if (current !== previous) {
        previous = current;
        store.dispatch(baseApi.util.resetApiState());
      }
    };
  })(),
);

setupListeners(store.dispatch);

export type RootState = ReturnType<typeof store.getState>;
export type AppDispatch = typeof store.dispatch;
export { loggedOut, sessionExpired };
