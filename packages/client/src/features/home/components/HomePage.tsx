import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import { useGetCryptoQuery } from '../../../api/endpoints';
import { CoinGrid, CoinGridPlaceholder } from '../../../components/CoinCard';
import { SiteLayout } from '../../../components/SiteLayout';
import './HomePage.css';

const FAQ = [
  ['What is Coinpurse?', 'Coinpurse is a custodial wallet: we keep your tokens safe while you hold, send, receive and swap them from one place.'],
  ['How do I create an account?', 'Choose Sign Up, enter your name, email, a password and your country of residence. Your wallet is ready right away.'],
  ['Which tokens can I hold?', 'Bitcoin, Ethereum, Tether and every other token listed in your wallet. Our team adds new ones regularly.'],
  ['How do I receive crypto?', 'Open your wallet, choose Receive, pick a token and share the address or its QR code with the sender.'],
  ['How long does a transfer take?', 'Transfers are reviewed first; you can follow their status (pending, approved or rejected) in your History.'],
  ['Can I swap one token for another?', 'Yes. Choose Swap, pick the tokens and the amount; the rate comes from current market prices.'],
  ['How do I get help?', 'Open a support ticket from Contact Us at any time; our team answers around the clock.'],
] as const;

export default function HomePage() {
  const { data: coins, isLoading, error } = useGetCryptoQuery({ limit: 8 });
  useEffect(() => {
    if (error) console.error('Could not load the market', error);
  }, [error]);
  const [email, setEmail] = useState('');

  function subscribe(event: FormEvent) {
    event.preventDefault();
    if (!email.trim()) return;
    setEmail('');
    toast.success('Successfully signed up for our newsletters');
  }

  return (
    <SiteLayout>
      <section className="hero">
        <div>
          <h1>Your crypto, simply kept.</h1>
          <p>Hold, send, receive and swap Bitcoin, Ethereum, Tether and more from one wallet, with every balance shown in US dollars.</p>
          <Link to="/login" className="button">
            Let's Get Started
          </Link>
        </div>
        <div className="hero-art" aria-hidden="true">
          <span>Main Wallet</span>
          <strong>$12,480.20</strong>
          <span>BTC · ETH · USDT</span>
        </div>
      </section>

      <section className="section" aria-labelledby="market-heading">
        <div className="row-between">
          <h2 id="market-heading">Market today</h2>
          <Link to="/market">See all</Link>
        </div>
        {isLoading ? <CoinGridPlaceholder count={8} label="Top coins" /> : <CoinGrid coins={(coins ?? []).slice(0, 8)} label="Top coins" />}
      </section>

      <section className="section card" aria-labelledby="newsletter-heading">
        <h2 id="newsletter-heading">Stay in the loop</h2>
        <p className="muted">Market news and product updates, once a week.</p>
        <form className="newsletter" onSubmit={subscribe}>
          <div className="field">
            <label htmlFor="newsletter-email">Email</label>
            <input id="newsletter-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          </div>
          <button type="submit" className="button">
            Sign up
          </button>
        </form>
      </section>

      <section className="section faq" aria-labelledby="faq-heading">
        <h2 id="faq-heading">Frequently asked questions</h2>
        {FAQ.map(([question, answer]) => (
          <details key={question}>
            <summary>{question}</summary>
            <p>{answer}</p>
          </details>
        ))}
      </section>
    </SiteLayout>
  );
}
