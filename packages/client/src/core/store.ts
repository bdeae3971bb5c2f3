import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { baseApi } from '../api/baseApi';
import { sessionSlice } from './session/sessionSlice';

/**
 * State a feature adds with a slice of its own (in `features/<feature>/store`): the feature declares it here by module
 * augmentation and injects the slice when its code loads, so the kernel never imports a feature:
 *   declare module '../../../core/store' { interface LazyLoadedSlices extends WithSlice<typeof fooSlice> {} }
 *   const withFoo = rootReducer.inject(fooSlice); // withFoo.selector((state) => state.foo.…)
 * (RTK Query endpoints need none of this: a feature injects them into the base API.)
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices(sessionSlice, baseApi).withLazyLoadedSlices<LazyLoadedSlices>();

export const store = configureStore({
  reducer: rootReducer,
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

export type RootState = ReturnType<typeof rootReducer>;
export type AppDispatch = typeof store.dispatch;
