import type { ReactNode } from 'react';
import { Footer } from './Footer';
import { Header } from './Header';

/** Header + main + footer for the public and account screens. */
export function SiteLayout({ children, className = 'page' }: { children: ReactNode; className?: string }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" className={className}>
        {children}
      </main>
      <Footer />
    </>
  );
}
