export default function WalletPage() {
  return <main className="page">WalletPage</main>;
}
