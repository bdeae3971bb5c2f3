import { createSlice, type WithSlice } from '@reduxjs/toolkit';
import { describe, expect, it } from 'vitest';
import { rootReducer, store } from './store';

// How a feature adds state of its own without the kernel importing it (see LazyLoadedSlices).
const draftSlice = createSlice({
  name: 'draft',
  initialState: { text: '' },
  reducers: { typed: (state, action: { payload: string }) => ({ ...state, text: action.payload }) },
});
declare module './store' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface LazyLoadedSlices extends WithSlice<typeof draftSlice> {}
}

describe('the store', () => {
  it('holds the session and the base API; a feature slice joins when its code injects it', () => {
    expect(Object.keys(store.getState()).sort()).toEqual(['api', 'session']);
    const withDraft = rootReducer.inject(draftSlice);
    store.dispatch(draftSlice.actions.typed('hello'));
    expect(withDraft.selector((state) => state.draft.text)(store.getState())).toBe('hello');
  });
});
