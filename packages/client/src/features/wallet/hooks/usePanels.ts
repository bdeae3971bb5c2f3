import { useState } from 'react';
import { usePersistentState } from '../../../lib/usePersistentState';
import type { WalletToken } from '../../../api/endpoints';

export type PanelKey = 'openChooseSend' | 'openChooseReceive' | 'openCoinpage' | 'openSwap' | 'openTransaction' | 'sendCoin' | 'openReceive' | 'openAddresses';

/** Panels of the wallet screen (not routes); open/closed state and selected tokens persist under the spec's keys. */
export function usePanels() {
  const [openChooseSend, setChooseSend] = usePersistentState('openChooseSend', false);
  const [openChooseReceive, setChooseReceive] = usePersistentState('openChooseReceive', false);
  const [openCoinpage, setCoinpage] = usePersistentState('openCoinpage', false);
  const [openSwap, setSwap] = usePersistentState('openSwap', false);
  const [openTransaction, setTransaction] = usePersistentState('openTransaction', false);
  const [sendCoin, setSendCoin] = usePersistentState('sendCoin', false);
  const [openReceive, setReceive] = usePersistentState('openReceive', false);
  // Not one of the spec's stored panels: the address book opens fresh.
  const [openAddresses, setAddresses] = useState(false);
  const [tokenData, setTokenData] = usePersistentState<WalletToken | null>('tokenData', null);
  const [selectedToken, setSelectedToken] = usePersistentState<WalletToken | null>('selectedToken', null);
  const [selectedReceiveToken, setSelectedReceiveToken] = usePersistentState<WalletToken | null>('selectedReceiveToken', null);

  // Where the coin page's Swap and History buttons start (the token shown there).
  const [openSwapFrom, setOpenSwapFrom] = useState<string | undefined>(undefined);
  const [historyToken, setHistoryToken] = useState<string | undefined>(undefined);

  const setters: Record<PanelKey, (v: boolean) => void> = {
    openChooseSend: setChooseSend,
    openChooseReceive: setChooseReceive,
    openCoinpage: setCoinpage,
    openSwap: setSwap,
    openTransaction: setTransaction,
    sendCoin: setSendCoin,
    openReceive: setReceive,
    openAddresses: setAddresses,
  };
  const flags: Record<PanelKey, boolean> = { openChooseSend, openChooseReceive, openCoinpage, openSwap, openTransaction, sendCoin, openReceive, openAddresses };

  /** The panel on top: later actions stack on the coin page, so closing them returns there. */
  const current: PanelKey | null =
    (['sendCoin', 'openReceive', 'openChooseSend', 'openChooseReceive', 'openSwap', 'openTransaction', 'openAddresses', 'openCoinpage'] as const).find(
      (key) => flags[key],
    ) ?? null;

  function open(key: PanelKey, keepCoinPage = false) {
    for (const k of Object.keys(setters) as PanelKey[]) {
      if (k === key) setters[k](true);
      else if (!(keepCoinPage && k === 'openCoinpage')) setters[k](false);
    }
  }
  const close = (key: PanelKey) => setters[key](false);
  const closeAll = () => (Object.keys(setters) as PanelKey[]).forEach((k) => setters[k](false));

  return {
    current,
    open,
    openSwapFrom,
    setOpenSwapFrom,
    historyToken,
    setHistoryToken,
    close,
    closeAll,
    tokenData,
    setTokenData,
    selectedToken,
    setSelectedToken,
    selectedReceiveToken,
    setSelectedReceiveToken,
  };
}
export type Panels = ReturnType<typeof usePanels>;
