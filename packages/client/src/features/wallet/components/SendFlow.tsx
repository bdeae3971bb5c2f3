import { useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { errorMessage, isTwoFactorRequired } from '../../../api/baseApi';
import { useGetNetworksQuery, useTwoFactorStatusQuery } from '../../../api/endpoints';
import { SecondFactorField, useSecondFactor } from '../../../components/SecondFactorField';
import { useGetNetworkFeeQuery, useSendCryptoMutation } from '../../../api/generated/walletApi.generated';
import { useAddAddressMutation, useGetAddressesQuery } from '../../../api/generated/walletAddressesApi.generated';
import { formatUsd, parseAmount } from '../../../lib/money';
import { formatQuantity } from '../../../lib/format';
import { confirmCoinAmount, sendCoinAmount } from '../lib/send';
import { usdForWholeQuantity } from '../lib/swap';
import { defaultSendNetwork, networksOf, shortAddress } from '../lib/networks';
import type { WalletRow } from '../lib/rows';
import { PanelHeader } from './PanelHeader';
import { QrScannerBox } from './QrScannerBox';
import { EMPTY_TRAVEL_RULE, TravelRuleFields, travelRuleOf } from './TravelRuleFields';

export default function SendFlow({ row, onClose, onDone }: { row: WalletRow; onClose: () => void; onDone: () => void }) {
  const { token } = row;
  const tokenNetworks = networksOf(token);
  const [address, setAddress] = useState('');
  const [network, setNetwork] = useState(() => defaultSendNetwork(token));
  const [memo, setMemo] = useState('');
  const [amountText, setAmountText] = useState('');
  // Max sends the exact holding (every decimal the chain gave), not the USD amount converted back: nothing stays stuck.
  const [max, setMax] = useState(false);
  const [scanning, setScanning] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [saveAddress, setSaveAddress] = useState(false);
  const [saveLabel, setSaveLabel] = useState('');
  const [travel, setTravel] = useState(EMPTY_TRAVEL_RULE);
  const [sendCrypto, { isLoading }] = useSendCryptoMutation();
  const [addAddress] = useAddAddressMutation();
  const { data: book } = useGetAddressesQuery();
  const { data: allNetworks } = useGetNetworksQuery();
  const busy = useRef(false);
  // With two-factor sign-in on, the confirm screen asks for the code (a withdrawal is a step-up action).
  const { data: twoFactor } = useTwoFactorStatusQuery();
  const secondFactor = useSecondFactor(Boolean(twoFactor?.enabled));
  const usd = parseAmount(amountText);
  const chosen = tokenNetworks.find((n) => n.network === network);
  const networkInfo = allNetworks?.find((n) => n.id === network);
  const needsNetwork = tokenNetworks.length > 1 && !chosen;
  // The travel rule: at or above the threshold (from the address book's settings), who the send goes to.
  const travelThreshold = book?.travelRuleThresholdUsd;
  const travelNeeded = travelThreshold !== undefined && usd >= travelThreshold;
  const travelRule = travelNeeded ? travelRuleOf(travel) : undefined;
  const canContinue = usd > 0 && address.trim().length > 0 && !needsNetwork && (!travelNeeded || travelRule !== undefined);
  const saved = (book?.addresses ?? []).filter((entry) => entry.token === token.id);
  // The confirm step shows the schedule's withdrawal fee (taken out of the amount), the network fee — the customer's,
  // out of the amount, on a network the platform pays out on by itself; Coinpurse's for an ERC-20 token (its gas) and
  // a token settled by hand — and what the recipient gets. An amount the fees take entirely cannot be confirmed (Send
  // refuses it, with the same text).
  const feeAmount = max ? row.exact : row.price > 0 ? sendCoinAmount(usd, row.price, token.id) : '';
  const coinText = max ? formatQuantity(row.exact, 18) : confirmCoinAmount(usd, row.price, token.id).slice(1);
  const { data: fee } = useGetNetworkFeeQuery(
    { tokenId: token.id, coinAmount: feeAmount, ...(tokenNetworks.length > 1 && network ? { network } : {}) },
    { skip: !confirming || !feeAmount || usd <= 0 },
  );
  const feeRefusal = fee?.refusal;
  const withdrawalFee = fee && Number(fee.withdrawalFee) > 0 ? fee.withdrawalFee : undefined;
  const symbol = token.symbol.toUpperCase();
  const alreadySaved = saved.some((entry) => entry.address === address.trim() && entry.network === network && (entry.memo ?? '') === memo.trim());

  function next(event: FormEvent) {
    event.preventDefault();
    if (canContinue) setConfirming(true);
  }

  function pickSaved(id: string) {
    const entry = saved.find((e) => e._id === id);
    if (!entry) return;
    setAddress(entry.address);
    setNetwork(entry.network);
    setMemo(entry.memo ?? '');
  }

  async function confirm() {
    if (busy.current || feeRefusal || (secondFactor.needed && !secondFactor.value)) return;
    busy.current = true;
    const idempotencyKey = crypto.randomUUID();
    const coin = sendCoinAmount(usd, row.price, token.id);
    const memoText = networkInfo?.memo ? memo.trim() : '';
    try {
      const response = await sendCrypto({
        tokenId: token.id,
        'Idempotency-Key': idempotencyKey,
        sendCryptoDto: {
          transferData: {
            address: address.trim(),
            amount: usd,
            symbol: token.symbol,
            coinAmount: coin,
            ...(max ? { coinAmountExact: row.exact } : {}),
            // A token on one network needs no choice: the body stays the spec's.
            ...(tokenNetworks.length > 1 && network ? { network } : {}),
            ...(memoText ? { memo: memoText } : {}),
          },
          code: secondFactor.value,
          ...(travelRule ? { travelRule } : {}),
        },
      }).unwrap();
      console.info('send-crypto', response);
      toast.success('Sent and Pending Check Status in History');
      if (saveAddress && !alreadySaved) {
        try {
          await addAddress({
            addAddressDto: {
              label: saveLabel.trim() || `${token.symbol.toUpperCase()} ${shortAddress(address.trim())}`,
              token: token.id,
              network: response.transaction.network ?? network,
              address: address.trim(),
              ...(memoText ? { memo: memoText } : {}),
            },
          }).unwrap();
          toast.success('Address saved');
        } catch (error) {
          toast.error(errorMessage(error, 'The address could not be saved.'));
        }
      }
      onDone();
      setTimeout(() => window.location.reload(), 1500);
    } catch (error) {
      if (isTwoFactorRequired(error)) {
        secondFactor.ask();
        secondFactor.reset();
      }
      toast.error(errorMessage(error, 'An error occurred'));
      busy.current = false;
    }
  }

  if (confirming) {
    return (
      <section className="panel" aria-label="Transfer">
        <PanelHeader title="Transfer" onBack={() => setConfirming(false)} />
        <p className="confirm-amount" data-testid="confirm-coin-amount">
          -{coinText} {token.symbol.toUpperCase()}
        </p>
        <p className="center muted" data-testid="confirm-usd-amount">
          {formatUsd(usd)}
        </p>
        {chosen && (
          <p className="center network-line" data-testid="confirm-network">
            Network: {chosen.name}
          </p>
        )}
        <dl className="summary">
          <dt>Asset</dt>
          <dd data-testid="confirm-asset">{`${token.name} (${token.symbol.toUpperCase()})`}</dd>
          {/* Paid from Coinpurse's own wallet, never from the customer's deposit address: the balance is what moves. */}
          <dt>From</dt>
          <dd data-testid="confirm-from">Your Coinpurse balance</dd>
          <dt>To</dt>
          <dd>{address.trim()}</dd>
          {travelRule && (
            <>
              <dt>Beneficiary</dt>
              <dd data-testid="confirm-beneficiary">
                {travelRule.recipient === 'own' ? 'You' : travelRule.beneficiaryName}
                {travelRule.wallet === 'exchange' ? ` · at ${travelRule.exchangeName}` : ' · self-hosted wallet'}
              </dd>
            </>
          )}
          {withdrawalFee && (
            <>
              <dt>Withdrawal fee</dt>
              <dd data-testid="confirm-withdrawal-fee">
                {withdrawalFee} {symbol}
              </dd>
            </>
          )}
          {fee?.estimatedFee && fee.feePaidBy === 'platform' && (
            <>
              <dt>Network fee</dt>
              <dd data-testid="confirm-network-fee">Paid by Coinpurse</dd>
              <dt>Recipient gets</dt>
              <dd data-testid="confirm-recipient-gets">
                {withdrawalFee && fee.recipientGets !== null ? fee.recipientGets : coinText} {symbol}
              </dd>
            </>
          )}
          {fee?.estimatedFee && fee.feePaidBy === 'customer' && (
            <>
              <dt>Network fee</dt>
              <dd data-testid="confirm-network-fee">
                ≈ {fee.estimatedFee} {symbol} (included in the amount)
              </dd>
              <dt>Recipient gets</dt>
              <dd data-testid="confirm-recipient-gets">
                {fee.recipientGets !== null ? `≈ ${fee.recipientGets}` : coinText} {symbol}
              </dd>
            </>
          )}
          {networkInfo?.memo && memo.trim() && (
            <>
              <dt>{networkInfo.memoLabel}</dt>
              <dd>{memo.trim()}</dd>
            </>
          )}
        </dl>
        <p className="muted center" data-testid="confirm-next">
          The amount leaves your balance now. The withdrawal is checked, signed and sent on the network: follow each step in History.
        </p>
        {/* The server refuses this amount at Send (the same text): the fees would leave the recipient nothing. */}
        {feeRefusal && (
          <p className="error-text center" role="alert" data-testid="confirm-fee-refusal">
            {feeRefusal}
          </p>
        )}
        {/* With two-factor sign-in on, saving needs its own code: the address book panel asks for it. */}
        {!alreadySaved && !secondFactor.needed && (
          <div className="field">
            <label className="checkbox">
              <input type="checkbox" checked={saveAddress} onChange={(e) => setSaveAddress(e.target.checked)} /> Save this address
            </label>
            {saveAddress && (
              <input
                aria-label="Label for the saved address"
                placeholder="Label (e.g. My Ledger)"
                value={saveLabel}
                maxLength={60}
                onChange={(e) => setSaveLabel(e.target.value)}
              />
            )}
          </div>
        )}
        {secondFactor.needed && <SecondFactorField id="send-code" value={secondFactor.code} onChange={secondFactor.setCode} />}
        <button
          type="button"
          className="button block"
          onClick={confirm}
          disabled={isLoading || Boolean(feeRefusal) || (secondFactor.needed && !secondFactor.value)}
        >
          {isLoading ? 'Sending...' : 'Confirm'}
        </button>
      </section>
    );
  }

  return (
    <section className="panel" aria-label={`Send ${token.name}`}>
      <PanelHeader title={`Send ${token.symbol.toUpperCase()}`} onBack={onClose} />
      <form onSubmit={next} noValidate>
        {saved.length > 0 && (
          <div className="field">
            <label htmlFor="send-saved">Saved addresses</label>
            <select id="send-saved" value="" onChange={(e) => pickSaved(e.target.value)}>
              <option value="">Choose a saved address…</option>
              {saved.map((entry) => (
                <option key={entry._id} value={entry._id}>
                  {entry.label} · {entry.networkName} · {shortAddress(entry.address)}
                </option>
              ))}
            </select>
          </div>
        )}
        {tokenNetworks.length > 1 && (
          <div className="field">
            <label htmlFor="send-network">Network</label>
            <select id="send-network" value={network} onChange={(e) => setNetwork(e.target.value)}>
              <option value="">Choose the network…</option>
              {tokenNetworks.map((n) => (
                <option key={n.network} value={n.network}>
                  {n.name}
                </option>
              ))}
            </select>
            <small className="hint">The receiving wallet must be on this network, or the funds are lost.</small>
          </div>
        )}
        <div className="field">
          <label htmlFor="send-address">Address</label>
          <div className="row">
            <input
              id="send-address"
              value={address}
              onChange={(e) => setAddress(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              placeholder={`${chosen ? `${chosen.name} ` : ''}${token.name} address`}
            />
            <button type="button" className="button secondary" aria-pressed={scanning} onClick={() => setScanning((v) => !v)}>
              {scanning ? 'Stop scan' : 'Scan QR'}
            </button>
          </div>
        </div>
        {scanning && (
          <QrScannerBox
            onResult={(text) => {
              setAddress(text.replace(/^[a-z]+:/i, '').split('?')[0]);
              setScanning(false);
            }}
            onClose={() => setScanning(false)}
          />
        )}
        {networkInfo?.memo && (
          <div className="field">
            <label htmlFor="send-memo">{networkInfo.memoLabel} (optional)</label>
            <input id="send-memo" value={memo} onChange={(e) => setMemo(e.target.value)} autoComplete="off" maxLength={64} />
            {networkInfo.memoHint && <small className="hint">{networkInfo.memoHint}</small>}
          </div>
        )}
        <div className="field">
          <div className="row-between">
            <label htmlFor="send-amount">Amount in USD</label>
            <button
              type="button"
              className="link-button"
              disabled={row.amount <= 0}
              onClick={() => {
                setAmountText(usdForWholeQuantity(row.amount, row.price, token.id));
                setMax(true);
              }}
            >
              Max
            </button>
          </div>
          <input
            id="send-amount"
            inputMode="decimal"
            type="number"
            min="0"
            step="0.01"
            value={amountText}
            onChange={(e) => {
              setAmountText(e.target.value);
              setMax(false);
            }}
            aria-describedby="send-amount-hint"
          />
          <small id="send-amount-hint" className="hint">
            {max ? `All of it: ${formatQuantity(row.exact, 18)}` : `≈ ${sendCoinAmount(usd, row.price, token.id)}`} {token.symbol.toUpperCase()} · available{' '}
            {formatUsd(row.usd)}
          </small>
        </div>
        {travelNeeded && <TravelRuleFields value={travel} onChange={setTravel} threshold={formatUsd(travelThreshold)} />}
        <button type="submit" className="button block" disabled={!canContinue}>
          Next
        </button>
      </form>
    </section>
  );
}
